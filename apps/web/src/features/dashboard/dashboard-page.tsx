// Placeholder until its issue fills it: the real title and an honest empty state.
export default function DashboardPage() {
  return <section><h1>Dashboard</h1></section>;
}
