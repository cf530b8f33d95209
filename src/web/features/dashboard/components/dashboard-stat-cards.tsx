import { BookOpenIcon, GraduationCapIcon, TrendingUpIcon, UsersIcon } from "lucide-react";
import { StatCard } from "../../../components/ui/stat-card";
import { useAdminStats } from "../api/get-admin-stats";

/** The four clickable stat cards of the admin dashboard (SPEC section 2). */
export function DashboardStatCards() {
  const { data: stats, isError } = useAdminStats();
  const value = (n: number | undefined) => (isError ? "—" : n);
  return (
    <section aria-label="Overview" className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
      <StatCard
        to="/admin/courses"
        label="Total Courses"
        value={value(stats?.totalCourses)}
        icon={<BookOpenIcon />}
        tone="indigo"
      />
      <StatCard
        to="/admin/learners"
        label="Active Learners"
        value={value(stats?.activeLearners)}
        icon={<UsersIcon />}
        tone="sky"
      />
      <StatCard
        to="/admin/reports"
        label="Completions"
        value={value(stats?.completions)}
        icon={<GraduationCapIcon />}
        tone="emerald"
      />
      <StatCard
        to="/admin/reports"
        label="Avg. Progress"
        value={isError ? "—" : stats ? `${stats.avgProgress}%` : undefined}
        icon={<TrendingUpIcon />}
        tone="violet"
      />
    </section>
  );
}
