import type { Reports } from "@contract";
import { useSyncExternalStore } from "react";
import { Bar, BarChart, CartesianGrid, Cell, LabelList, Tooltip, XAxis, YAxis } from "recharts";

const INDIGO = "#4f46e5";
const CATEGORY_COLORS: Record<string, string> = {
  Development: "#4f46e5",
  Database: "#0284c7",
  Mobile: "#7c3aed",
  Design: "#e11d48",
};
const AXIS_TICK = { fill: "#52525b", fontSize: 12 };

/** Completion rate per course, top 10 by enrollments (the server's order), as horizontal bars. */
export function CompletionRateChart({ courses }: { courses: Reports["courses"] }) {
  const data = courses.slice(0, 10).map((c) => ({
    name: c.title,
    completionRate: c.completionRate,
    enrollments: c.enrollments,
  }));
  const height = Math.max(160, data.length * 44 + 40);
  const labelWidth = useNarrowScreen() ? 112 : 184;
  return (
    <div data-testid="completion-rate-chart" className="w-full">
      <BarChart
        responsive
        accessibilityLayer={false}
        layout="vertical"
        data={data}
        margin={{ top: 4, right: 44, bottom: 4, left: 4 }}
        style={{ width: "100%", height }}
      >
        <CartesianGrid horizontal={false} stroke="#e4e4e7" strokeDasharray="3 3" />
        <XAxis
          type="number"
          domain={[0, 100]}
          ticks={[0, 25, 50, 75, 100]}
          tickFormatter={(v: number) => `${v}%`}
          tick={AXIS_TICK}
          axisLine={false}
          tickLine={false}
        />
        <YAxis
          type="category"
          dataKey="name"
          width={labelWidth}
          tick={<CourseTick maxChars={Math.floor(labelWidth / 7)} />}
          axisLine={false}
          tickLine={false}
        />
        <Tooltip
          cursor={{ fill: "#eef2ff" }}
          content={({ active, payload }) => (
            <ChartTooltip
              active={active}
              payload={payload}
              summarize={(row) =>
                `${row.completionRate}% completed · ${row.enrollments} ${row.enrollments === 1 ? "enrollment" : "enrollments"}`
              }
            />
          )}
        />
        <Bar
          dataKey="completionRate"
          fill={INDIGO}
          radius={[0, 6, 6, 0]}
          barSize={22}
          isAnimationActive={false}
          background={{ fill: "#f4f4f5", radius: 6 }}
        >
          <LabelList
            dataKey="completionRate"
            position="right"
            formatter={(v: unknown) => `${v}%`}
            style={{ fill: "#27272a", fontSize: 12, fontWeight: 600 }}
          />
        </Bar>
      </BarChart>
    </div>
  );
}

/** Enrollments per category as vertical bars, one colour per category. */
export function CategoryEnrollmentsChart({ categories }: { categories: Reports["categories"] }) {
  const data = categories.map((c) => ({
    name: c.category,
    enrollments: c.enrollments,
    completionRate: c.completionRate,
  }));
  return (
    <div data-testid="category-enrollments-chart" className="w-full">
      <BarChart
        responsive
        accessibilityLayer={false}
        data={data}
        margin={{ top: 20, right: 8, bottom: 4, left: -16 }}
        style={{ width: "100%", height: 240 }}
      >
        <CartesianGrid vertical={false} stroke="#e4e4e7" strokeDasharray="3 3" />
        <XAxis
          dataKey="name"
          interval={0}
          tick={{ ...AXIS_TICK, fontSize: 11 }}
          axisLine={false}
          tickLine={false}
        />
        <YAxis allowDecimals={false} tick={AXIS_TICK} axisLine={false} tickLine={false} />
        <Tooltip
          cursor={{ fill: "#f4f4f5" }}
          content={({ active, payload }) => (
            <ChartTooltip
              active={active}
              payload={payload}
              summarize={(row) =>
                `${row.enrollments} ${row.enrollments === 1 ? "enrollment" : "enrollments"} · ${row.completionRate}% completed`
              }
            />
          )}
        />
        <Bar dataKey="enrollments" radius={[6, 6, 0, 0]} maxBarSize={56} isAnimationActive={false}>
          {data.map((row) => (
            <Cell key={row.name} fill={CATEGORY_COLORS[row.name] ?? INDIGO} />
          ))}
          <LabelList
            dataKey="enrollments"
            position="top"
            style={{ fill: "#27272a", fontSize: 12, fontWeight: 600 }}
          />
        </Bar>
      </BarChart>
    </div>
  );
}

type Row = { name: string; enrollments: number; completionRate: number };

function ChartTooltip({
  active,
  payload,
  summarize,
}: {
  active?: boolean;
  payload?: ReadonlyArray<{ payload?: unknown }>;
  summarize: (row: Row) => string;
}) {
  const row = payload?.[0]?.payload as Row | undefined;
  if (!active || !row) return null;
  return (
    <div className="rounded-lg border border-zinc-200 bg-white px-3 py-2 text-xs shadow-lg shadow-zinc-950/10">
      <p className="font-semibold text-zinc-900">{row.name}</p>
      <p className="mt-0.5 text-zinc-600">{summarize(row)}</p>
    </div>
  );
}

const narrowQuery = "(max-width: 639px)";

/** True on phone-width screens, where the course names get a narrower column. */
function useNarrowScreen(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const query = window.matchMedia(narrowQuery);
      query.addEventListener("change", onChange);
      return () => query.removeEventListener("change", onChange);
    },
    () => window.matchMedia(narrowQuery).matches,
  );
}

/** A course name on one line, cut with an ellipsis (Recharts would wrap it instead). */
function CourseTick({
  x,
  y,
  payload,
  maxChars,
}: {
  x?: number | string;
  y?: number | string;
  payload?: { value?: string };
  maxChars: number;
}) {
  const name = payload?.value ?? "";
  const label = name.length > maxChars ? `${name.slice(0, maxChars - 1)}…` : name;
  return (
    <text x={x} y={y} dy={4} textAnchor="end" fill={AXIS_TICK.fill} fontSize={AXIS_TICK.fontSize}>
      <title>{name}</title>
      {label}
    </text>
  );
}
