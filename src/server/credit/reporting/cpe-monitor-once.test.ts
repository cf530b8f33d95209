import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { EMPTY_REGULATOR_IDS, type RegulatorIdsInput } from "../../../contract";
import {
  accme,
  creditOffer,
  creditType,
  STATEMENT,
  useCreditClaim,
} from "../../testing/credit-claim";
import {
  call,
  completeViaApi,
  enrollViaApi,
  quickAdmin,
  quickLearner,
  signInAs,
} from "../../testing/learning";
import { anotherInstance } from "../../testing/test-app";

const ACTIVITY = accme({ evaluationRequired: false, acknowledgementRequired: false });
const OFFER = creditOffer([creditType({ claimStep: null, amount: 1.5 })], { ACCME: "PN-1" });
const PHARMACIST: RegulatorIdsInput = {
  ...EMPTY_REGULATOR_IDS,
  certifyingBoard: "",
  firstName: "Ann",
  lastName: "Rx",
  birthMonth: 3,
  birthDay: 7,
  licenceState: "or",
  licenceNumber: "MD204518",
  npi: "1234567893",
  nabpEpid: "123456",
};
const today = () => new Date().toISOString().slice(0, 10);

/**
 * A stand-in for CPE Monitor that keeps its first answer back until the test lets it go, and
 * answers every other request at once: whatever else is sent while the first claim is out is
 * counted before that claim's sender finishes.
 */
async function serviceHoldingItsFirstAnswer() {
  const requests: URL[] = [];
  let up = true;
  let letGo = () => {};
  const released = new Promise<void>((resolve) => {
    letGo = resolve;
  });
  let firstArrived = () => {};
  const first = new Promise<void>((resolve) => {
    firstArrived = resolve;
  });
  let holding = false;
  const server = createServer(async (req, res) => {
    requests.push(new URL(req.url ?? "/", "http://localhost"));
    if (!up) return void res.writeHead(503).end("{}");
    if (!holding) {
      holding = true;
      firstArrived();
      await released;
    }
    res.writeHead(200, { "content-type": "application/json" }).end('{"status":"Accepted"}');
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const port = (server.address() as AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}/service/cpemonitorservice.asmx`,
    requests,
    first,
    letGo,
    setUp: (value: boolean) => {
      up = value;
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

describe("a completion sent to CPE Monitor", () => {
  const { ctx, setup, clock } = useCreditClaim();

  /** A course reporting to CPE Monitor at `base`, and one learner's attested claim. */
  async function claimReady(base: string) {
    const s = await setup(ACTIVITY, 1, OFFER);
    const admin = s.adminCookie;
    const reporting = await call(ctx, "PUT", `/api/courses/${s.course.id}/reporting`, {
      cookie: admin,
      payload: {
        types: [
          {
            creditTypeId: s.types[0]!.id,
            regulators: [{ regulator: "cpe_monitor", activityId: "0197-0000-26-105-H01-P" }],
          },
        ],
      },
    });
    expect(reporting.statusCode, reporting.body).toBe(200);
    const user = await quickLearner(ctx, { name: "Ann Rx" });
    const cookie = await signInAs(ctx, user);
    await enrollViaApi(ctx, admin, user.id, s.course.id);
    await completeViaApi(ctx, cookie, user.id, s.course, 1);
    const ids = await call(ctx, "PUT", "/api/me/regulator-ids", { cookie, payload: PHARMACIST });
    expect(ids.statusCode, ids.body).toBe(200);
    const attested = await call(ctx, "POST", s.url("attest"), {
      cookie,
      payload: {
        statement: STATEMENT,
        claims: [{ creditTypeId: s.types[0]!.id, amount: null }],
        reportingConsent: true,
      },
    });
    expect(attested.statusCode, attested.body).toBe(200);
    const connected = await call(
      ctx,
      "PUT",
      "/api/admin/reports/regulators/cpe_monitor/connection",
      {
        cookie: admin,
        payload: {
          providerNumber: "0197",
          username: "northwind",
          password: "s3cret!",
          serviceUrl: base,
        },
      },
    );
    expect(connected.statusCode, connected.body).toBe(200);
    const submit = (cookie: string) =>
      call(ctx, "POST", "/api/admin/reports/regulators/cpe_monitor/submissions", {
        cookie,
        payload: { courseId: s.course.id, from: today(), to: today() },
      });
    return { admin, submit };
  }

  it("goes once when two administrators submit at the same moment", async () => {
    const service = await serviceHoldingItsFirstAnswer();
    try {
      const { admin, submit } = await claimReady(service.base);
      const colleague = await signInAs(ctx, await quickAdmin(ctx));
      const answers = [submit(admin), submit(colleague)];
      await service.first;
      // While the first administrator's send is out, the second finds nothing left to send.
      const second = await Promise.race(answers);
      expect([second.statusCode, second.json().code]).toEqual([409, "reporting.nothing_to_report"]);
      service.letGo();
      const both = await Promise.all(answers);
      expect(both.map((a) => a.statusCode).sort()).toEqual([200, 409]);
      expect(both.find((a) => a.statusCode === 200)!.json()).toMatchObject({ accepted: 1 });
      expect(service.requests).toHaveLength(1);
    } finally {
      await service.close();
    }
  });

  it("is retried once when two instances sweep at the same moment", async () => {
    const service = await serviceHoldingItsFirstAnswer();
    const other = await anotherInstance(ctx, { clock: clock.now });
    try {
      const { admin, submit } = await claimReady(service.base);
      service.setUp(false);
      expect((await submit(admin)).json()).toMatchObject({ waiting: 1 });
      service.setUp(true);
      clock.advanceDays(1);
      const sweeping = ctx.app.cpeMonitorRetries.sweep();
      await service.first;
      // The other instance's sweep finds the claim held, sends nothing and ends.
      await other.cpeMonitorRetries.sweep();
      service.letGo();
      await sweeping;
      expect(service.requests).toHaveLength(2);
    } finally {
      await other.close();
      await service.close();
    }
  });
});
