import { describe, expect, it } from "vitest";
import { createQueueRunner } from "./queue-runner";

/** A queue of mails in memory, sent a batch at a time as the mail senders do. */
function queueOf(mails: number, batch: number) {
  const queued = Array.from({ length: mails }, (_, i) => i);
  const sent: number[] = [];
  let release!: () => void;
  const firstSendHeld = new Promise<void>((resolve) => (release = resolve));
  let firstSendStarted!: () => void;
  const started = new Promise<void>((resolve) => (firstSendStarted = resolve));
  async function sendPending(stopping: () => boolean) {
    for (;;) {
      const claimed = queued.splice(0, batch);
      for (const mail of claimed) {
        if (sent.length === 0) {
          firstSendStarted();
          await firstSendHeld;
        }
        sent.push(mail);
      }
      if (claimed.length < batch || stopping()) return;
    }
  }
  return { queued, sent, sendPending, started, release };
}

const log = { warn() {} };

describe("mail queue runner", () => {
  it("sends the whole queue, batch after batch, when nobody stops it", async () => {
    const queue = queueOf(45, 20);
    const runner = createQueueRunner({ table: "mails", run: queue.sendPending, log });
    runner.start();
    queue.release();
    await runner.idle();
    expect(queue.sent).toHaveLength(45);
  });

  it("stops after the batch in hand, leaves the rest queued, and sends nothing more until started", async () => {
    const queue = queueOf(45, 20);
    const runner = createQueueRunner({ table: "mails", run: queue.sendPending, log });
    runner.start();
    await queue.started;
    const stopped = runner.stop();
    queue.release();
    await stopped;
    expect(queue.sent).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(queue.queued).toHaveLength(25);

    // A mail queued after the stop wakes nobody.
    runner.kick();
    await runner.idle();
    expect(queue.sent).toHaveLength(20);

    // Started again (the next start of the portal), it sends what was left.
    runner.start();
    await runner.idle();
    expect(queue.sent).toHaveLength(45);
  });
});
