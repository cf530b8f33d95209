import * as xmllint from "@authenio/samlify-node-xmllint";

type Listener = (...args: unknown[]) => void;

/**
 * samlify's schema check with xmllint, made safe to run in a long-lived server. The
 * emscripten build of xmllint, on every call, adds a process-wide `uncaughtException`
 * listener that keeps its whole 16 MB heap alive, and a stdout `drain` listener that exits
 * the process; it also prints to the console. The call is synchronous, so whatever it added
 * is taken off again before any event can reach it, and its printing goes nowhere.
 */
export function validateSamlSchema(xml: string): Promise<unknown> {
  const watched: [NodeJS.EventEmitter, string][] = [
    [process, "uncaughtException"],
    [process.stdout, "drain"],
    [process.stderr, "drain"],
  ];
  const before = watched.map(([emitter, event]) => new Set(emitter.listeners(event)));
  const { log, error } = console;
  console.log = () => {};
  console.error = () => {};
  try {
    return xmllint.validate(xml);
  } finally {
    console.log = log;
    console.error = error;
    watched.forEach(([emitter, event], i) => {
      for (const listener of emitter.listeners(event) as Listener[]) {
        if (!before[i]?.has(listener)) emitter.off(event, listener);
      }
    });
  }
}
