/** The benchmark's outputs: the console and Markdown tables, the budgets, and an SVG chart. */
import { type CrowdStep, isLearnerKind, type LoadResult } from "./types";
import type { WebWeights } from "./web-size";

export type Group = "baseline" | "learner" | "admin" | "video";

export interface ScenarioResult {
  id: string;
  group: Group;
  title: string;
  /** What answers: the portal, the hello-world process, or nginx. */
  target: "portal" | "hello" | "nginx";
  connections: number;
  note?: string;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  mbps: number;
  /** req/s (API) or MB/s (video) over the baseline's, from the same run. */
  ratio: number | null;
  baseline: string | null;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number | undefined>;
  serverCpu: number;
  clientCpu: number;
  machineBusy: number;
  rssBeforeMB: number;
  rssPeakMB: number;
  rssAfterMB: number;
  progress?: { fresh: number; repeats: number; failed: number };
  /** exam rows: new attempts, starts answered with the attempt in progress, refused calls. */
  exam?: { created: number; resumed: number; failed: number };
  flood?: LoadResult["flood"];
  /** heartbeat row: refused heartbeats, and the rate the learners' heartbeat limit allows. */
  heartbeat?: { refused: number; maxRate: number };
  /** capacity row: every crowd size tried, and the largest sustained. */
  crowd?: LoadResult["crowd"];
}

export interface Budget {
  id: string;
  text: string;
  measured: string;
  /** null: not evaluated in this mode or the scenario did not run. */
  pass: boolean | null;
}

const MB = 1024 * 1024;
export const toMB = (bytes: number) => bytes / MB;

const fmt = (n: number, digits = 1) =>
  Number.isFinite(n) ? n.toLocaleString("en-US", { maximumFractionDigits: digits }) : "-";
const ms = (n: number) => (n >= 100 ? fmt(n, 0) : n >= 10 ? fmt(n, 1) : fmt(n, 2));

function ratioText(r: ScenarioResult) {
  if (r.ratio === null) return r.group === "baseline" ? "baseline" : "-";
  return `${(r.ratio * 100).toFixed(r.ratio < 0.1 ? 1 : 0)}% of ${r.baseline}`;
}

const COLUMNS = [
  "scenario",
  "conns",
  "req/s",
  "p50 ms",
  "p95 ms",
  "p99 ms",
  "MB/s",
  "ratio to baseline",
  "non-2xx",
] as const;

function cells(r: ScenarioResult): string[] {
  return [
    r.title,
    String(r.connections),
    fmt(r.rps, 0),
    ms(r.p50),
    ms(r.p95),
    ms(r.p99),
    fmt(r.mbps, 1),
    ratioText(r),
    String(r.non2xx + r.errors + r.timeouts),
  ];
}

export function consoleTable(results: ScenarioResult[]): string {
  const rows = [[...COLUMNS] as string[], ...results.map(cells)];
  const widths = COLUMNS.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const lines = rows.map((row) =>
    row
      .map((c, i) => (i === 0 || i === 7 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join("  "),
  );
  lines.splice(1, 0, "-".repeat(lines[0]!.length));
  return lines.join("\n");
}

export function markdownTable(results: ScenarioResult[]): string {
  const head = `| ${COLUMNS.join(" | ")} |`;
  const rule = `|${COLUMNS.map((_, i) => (i === 0 || i === 7 ? "---" : "---:")).join("|")}|`;
  return [head, rule, ...results.map((r) => `| ${cells(r).join(" | ")} |`)].join("\n");
}

export function budgetLines(budgets: Budget[]): string[] {
  return budgets.map(
    (b) => `${b.pass === null ? "n/a " : b.pass ? "PASS" : "MISS"}  ${b.text}: ${b.measured}`,
  );
}

export function markdownBudgets(budgets: Budget[]): string {
  return [
    "| budget | measured | result |",
    "|---|---|---|",
    ...budgets.map(
      (b) =>
        `| ${b.text} | ${b.measured} | ${b.pass === null ? "n/a" : b.pass ? "PASS" : "MISS"} |`,
    ),
  ].join("\n");
}

/** One step of the capacity scenario in a line: its size, the slowest routes, the verdict. */
export function crowdStepLine(step: CrowdStep): string {
  const kinds = Object.entries(step.kinds);
  const total = kinds.reduce((sum, [, k]) => sum + k.rps, 0);
  const slowest = kinds
    .filter(([k]) => isLearnerKind(k))
    .sort(([, a], [, b]) => b.p95 - a.p95)
    .slice(0, 2)
    .map(([k, r]) => `${k} p95 ${r.p95.toFixed(1)} ms`)
    .join(", ");
  return `${step.learners.toLocaleString("en-US")} learners: ${total.toFixed(0)} req/s, slowest ${slowest}; server ${step.serverCpu.toFixed(2)} cores, machine ${(step.machineBusy * 100).toFixed(0)}% busy, the crowd's own thread late by up to ${step.clientDelayMs.max.toFixed(0)} ms: ${step.failed ? `not sustained (${step.failed})` : "sustained"}`;
}

/** The capacity scenario: one row per crowd size and request kind. */
export function markdownCapacity(crowd: NonNullable<LoadResult["crowd"]>): string {
  const lines = [
    `Capacity: largest crowd sustained **${crowd.sustained.toLocaleString("en-US")} learners** (every learner route p95 within the limit, nothing refused).`,
    "",
    "| learners | request | req/s | p50 ms | p95 ms | p99 ms | non-2xx | server cores | machine busy | step |",
    "|---:|---|---:|---:|---:|---:|---:|---:|---:|---|",
  ];
  for (const step of crowd.steps) {
    for (const [kind, r] of Object.entries(step.kinds)) {
      lines.push(
        `| ${step.learners.toLocaleString("en-US")} | ${kind} | ${fmt(r.rps)} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.p99)} | ${r.non2xx} | ${step.serverCpu.toFixed(2)} | ${(step.machineBusy * 100).toFixed(0)}% | ${step.failed ? `not sustained: ${step.failed}` : "sustained"} |`,
      );
    }
  }
  return lines.join("\n");
}

export function markdownWeb(web: WebWeights): string {
  const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`;
  return [
    "| page | JS files | JS (raw) | JS (gzip) | CSS (gzip) | heavy libraries in first load |",
    "|---|---:|---:|---:|---:|---|",
    ...web.pages.map(
      (p) =>
        `| ${p.page} | ${p.jsFiles.length} | ${kb(p.jsBytes)} | ${kb(p.jsGzip)} | ${kb(p.cssGzip)} | ${p.heavyLibraries.join(", ") || "none"} |`,
    ),
  ].join("\n");
}

// ---------------------------------------------------------------------------------------
// SVG chart: three panels of horizontal bars (req/s, p95 with budget marks, video MB/s).

const esc = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

interface Bar {
  label: string;
  value: number;
  text: string;
  color: string;
  mark?: number;
}

function panel(
  title: string,
  bars: Bar[],
  y: number,
  width: number,
  log = false,
): { svg: string; h: number } {
  const labelW = 300;
  const barW = width - labelW - 170;
  const rowH = 22;
  const max = Math.max(1e-9, ...bars.map((b) => Math.max(b.value, b.mark ?? 0)));
  // Log scale: 1 .. max maps to 0 .. barW (API rows span 100x below the hello world).
  const scale = (v: number) =>
    log ? (Math.log10(Math.max(1, v)) / Math.log10(Math.max(10, max))) * barW : (v / max) * barW;
  const parts = [
    `<text x="16" y="${y + 18}" font-size="15" font-weight="600">${esc(title)}</text>`,
  ];
  bars.forEach((b, i) => {
    const top = y + 30 + i * rowH;
    const w = Math.max(1, scale(b.value));
    parts.push(
      `<text x="${labelW - 8}" y="${top + 14}" font-size="12" text-anchor="end">${esc(b.label)}</text>`,
      `<rect x="${labelW}" y="${top + 3}" width="${w.toFixed(1)}" height="${rowH - 6}" rx="2" fill="${b.color}"/>`,
      `<text x="${(labelW + w + 6).toFixed(1)}" y="${top + 14}" font-size="11" fill="#374151">${esc(b.text)}</text>`,
    );
    if (b.mark !== undefined) {
      const x = labelW + scale(b.mark);
      parts.push(
        `<line x1="${x.toFixed(1)}" x2="${x.toFixed(1)}" y1="${top}" y2="${top + rowH}" stroke="#111827" stroke-width="2" stroke-dasharray="3,2"/>`,
      );
    }
  });
  return { svg: parts.join("\n"), h: 40 + bars.length * rowH };
}

const COLORS: Record<Group, string> = {
  baseline: "#9ca3af",
  learner: "#4f46e5",
  admin: "#0891b2",
  video: "#d97706",
};

const pct = (ratio: number) => `${(ratio * 100).toFixed(ratio < 0.1 ? 1 : 0)}%`;

export function renderSvg(
  results: ScenarioResult[],
  p95Budgets: Record<string, number>,
  rpsMarks: Record<string, number>,
  title: string,
  footer: string[],
): string {
  const width = 980;
  const api = results.filter((r) => r.group !== "video" && r.target !== "nginx");
  const video = results.filter((r) => r.group === "video" || r.target === "nginx");
  const panels: { svg: string; h: number }[] = [];
  let y = 44;
  const add = (p: { svg: string; h: number }) => {
    panels.push(p);
    y += p.h + 14;
  };
  add(
    panel(
      "Requests per second, log scale (higher is better; % of hello world; dashed = 35% budget)",
      api.map((r) => ({
        label: r.title,
        value: r.rps,
        text: `${fmt(r.rps, 0)} req/s${r.ratio !== null ? `  (${pct(r.ratio)})` : ""}`,
        color: COLORS[r.group],
        mark: rpsMarks[r.id],
      })),
      y,
      width,
      true,
    ),
  );
  add(
    panel(
      "p95 latency in ms (lower is better; dashed line = budget; red = over budget)",
      api
        .filter((r) => r.group !== "baseline")
        .map((r) => {
          const budget = p95Budgets[r.id];
          return {
            label: r.title,
            value: r.p95,
            text: `${ms(r.p95)} ms${budget ? ` (budget ${budget})` : ""}`,
            color: budget !== undefined && r.p95 > budget ? "#dc2626" : COLORS[r.group],
            mark: budget,
          };
        }),
      y,
      width,
    ),
  );
  if (video.length) {
    add(
      panel(
        "Video: MB/s of random 8 MB ranges of a 500 MB file (higher is better)",
        video.map((r) => ({
          label: `${r.title} (${r.connections} readers)`,
          value: r.mbps,
          text: `${fmt(r.mbps, 0)} MB/s${r.ratio !== null ? `  (${pct(r.ratio)} of nginx)` : ""}`,
          color: r.target === "nginx" ? COLORS.baseline : COLORS.video,
        })),
        y,
        width,
      ),
    );
  }
  const footerSvg = footer
    .map(
      (line, i) =>
        `<text x="16" y="${y + 10 + i * 18}" font-size="12" fill="#374151">${esc(line)}</text>`,
    )
    .join("\n");
  const height = y + 20 + footer.length * 18;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, Segoe UI, sans-serif">
<rect width="100%" height="100%" fill="#ffffff"/>
<text x="16" y="26" font-size="18" font-weight="700">${esc(title)}</text>
${panels.map((p) => p.svg).join("\n")}
${footerSvg}
</svg>
`;
}
