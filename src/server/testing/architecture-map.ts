import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** The server's bounded contexts, each depending only on those before it. */
export const CONTEXT_ORDER = [
  "people",
  "platform",
  "catalogue",
  "learning",
  "credit",
  "administration",
] as const;

const SERVER_ROOT = fileURLToPath(new URL("..", import.meta.url));

/** A feature as `<context>/<feature>`. */
type FeatureId = string;

export interface ArchitectureMap {
  /** Features by context, in the contexts' order. */
  features: Map<string, string[]>;
  /** Import statements from one feature into another (or into a face, as `<context>`). */
  imports: Map<FeatureId, Map<string, number>>;
  /** Each table (its SQL name) with the feature whose `*.table.ts` declares it. */
  tables: { name: string; owner: FeatureId }[];
  /** Each event type with the features that publish it and those that subscribe. */
  events: Map<string, { publishers: Set<FeatureId>; subscribers: Set<FeatureId> }>;
}

const isSource = (file: string) => file.endsWith(".ts") && !file.endsWith(".test.ts");

function filesOf(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesOf(path) : isSource(name) ? [path] : [];
  });
}

/** The feature (or, for a face, the context) a server path belongs to, if any. */
function featureOf(path: string): string | undefined {
  const [context, feature] = relative(SERVER_ROOT, path).split("/");
  if (!(CONTEXT_ORDER as readonly string[]).includes(context!)) return undefined;
  return feature && !feature.endsWith(".ts") ? `${context}/${feature}` : context;
}

const IMPORT = /(?:import|export)\s[^;]*?from\s+"(\.[^"]+)"/g;

/** Reads the contexts, their features, the imports between them, the tables and the events. */
export function readArchitecture(): ArchitectureMap {
  const features = new Map<string, string[]>();
  const imports = new Map<FeatureId, Map<string, number>>();
  const tables: ArchitectureMap["tables"] = [];
  const events: ArchitectureMap["events"] = new Map();
  const eventOf = (type: string) => {
    const entry = events.get(type) ?? { publishers: new Set(), subscribers: new Set() };
    events.set(type, entry);
    return entry;
  };
  for (const context of CONTEXT_ORDER) {
    const dir = join(SERVER_ROOT, context);
    const names = readdirSync(dir).filter((n) => statSync(join(dir, n)).isDirectory());
    features.set(context, names.sort());
    for (const name of names) {
      const id = `${context}/${name}`;
      const counts = new Map<string, number>();
      for (const file of filesOf(join(dir, name))) {
        const text = readFileSync(file, "utf8");
        for (const match of text.matchAll(IMPORT)) {
          const target = featureOf(normalize(join(dirname(file), match[1]!)));
          if (target && target !== id) counts.set(target, (counts.get(target) ?? 0) + 1);
        }
        if (file.endsWith(".table.ts")) {
          for (const m of text.matchAll(/=\s*pgTable\(\s*"([a-z_]+)"/g)) {
            tables.push({ name: m[1]!, owner: id });
          }
        }
        for (const m of text.matchAll(/publish(?:In)?\(\s*(?:\w+,\s*)?"([a-z.-]+)"/g)) {
          eventOf(m[1]!).publishers.add(id);
        }
        for (const m of text.matchAll(/subscribe\("([a-z.-]+)"/g)) {
          eventOf(m[1]!).subscribers.add(id);
        }
      }
      imports.set(id, counts);
    }
  }
  tables.sort((a, b) => a.name.localeCompare(b.name));
  return { features, imports, tables, events };
}

/** The context of a feature id or a face. */
const contextOf = (id: string) => id.split("/")[0]!;

/** Groups of features that import each other, directly or round a loop (Tarjan). */
export function featureCycles(map: ArchitectureMap): string[][] {
  const ids = [...map.imports.keys()];
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of map.imports.get(v)?.keys() ?? []) {
      if (!map.imports.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) cycles.push(group.sort());
    }
  };
  for (const id of ids) if (!index.has(id)) visit(id);
  return cycles;
}

/** The contexts each context imports (through faces or otherwise). */
export function contextImports(map: ArchitectureMap): Map<string, Set<string>> {
  const result = new Map<string, Set<string>>(CONTEXT_ORDER.map((c) => [c, new Set()]));
  for (const [from, targets] of map.imports) {
    for (const target of targets.keys()) {
      if (contextOf(target) !== contextOf(from))
        result.get(contextOf(from))!.add(contextOf(target));
    }
  }
  return result;
}

const node = (id: string) => id.replace("/", "_");

/** The diagram and the tables' owners that docs/architecture.md shows, made from the code. */
export function architectureDiagram(map: ArchitectureMap): string {
  const lines = ["```mermaid", "flowchart BT"];
  for (const [context, names] of map.features) {
    lines.push(`  subgraph ${context}`);
    for (const name of names) lines.push(`    ${node(`${context}/${name}`)}[${name}]`);
    lines.push("  end");
  }
  for (const [from, targets] of contextImports(map)) {
    for (const to of CONTEXT_ORDER.filter((c) => targets.has(c))) lines.push(`  ${from} --> ${to}`);
  }
  for (const [type, { publishers, subscribers }] of [...map.events].sort()) {
    for (const from of [...publishers].sort()) {
      for (const to of [...subscribers].sort()) {
        lines.push(`  ${node(from)} -. ${type} .-> ${node(to)}`);
      }
    }
  }
  lines.push("```", "", "| table | owner |", "|---|---|");
  for (const t of map.tables) lines.push(`| \`${t.name}\` | ${t.owner} |`);
  return lines.join("\n");
}
