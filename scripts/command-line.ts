import { type ParseArgsConfig, parseArgs } from "node:util";

type Options = NonNullable<ParseArgsConfig["options"]>;
type WithHelp<O extends Options> = O & { help: { type: "boolean"; default: false } };

/**
 * The options of one of our command-line tools, read the way people expect: `--help` prints
 * the usage and exits 0; an unknown or malformed option prints one line naming the mistake,
 * then the usage, and exits 2 without a stack trace and before anything was changed.
 * `fail` reports a mistake the tool finds itself (a value out of range) the same way.
 * Tools import the portal's modules only after this call, so both answer at once.
 */
export function readCommandLine<const O extends Options>(tool: string, usage: string, options: O) {
  const fail = (message: string): never => {
    console.error(`${tool}: ${message}\n\n${usage}`);
    process.exit(2);
  };
  let values: ReturnType<typeof parseArgs<{ options: WithHelp<O> }>>["values"];
  try {
    values = parseArgs({
      options: { ...options, help: { type: "boolean", default: false } } as WithHelp<O>,
    }).values;
  } catch (err) {
    return fail(err instanceof Error ? err.message : String(err));
  }
  if ((values as { help?: boolean }).help) {
    console.log(usage);
    process.exit(0);
  }
  /** A whole number ≥ 1 from option `name`, or the usage error saying so. */
  const positive = (value: string | undefined, name: string): number => {
    const n = Number(value);
    return Number.isInteger(n) && n >= 1 ? n : fail(`--${name} must be a positive integer`);
  };
  return { values, fail, positive };
}

/**
 * Runs a tool's work and reports a failure (a missing backup file, a locked data directory,
 * a failed pg_dump) as one line with exit code 1: the message is for the person, a stack
 * trace would only bury it.
 */
export async function runTool(tool: string, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (err) {
    console.error(`${tool}: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  }
}
