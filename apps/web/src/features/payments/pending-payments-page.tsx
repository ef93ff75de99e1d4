// Placeholder until its issue fills it: the real title and an honest empty state.
export default function PendingPaymentsPage() {
  return <section><h1>Pending Payments</h1></section>;
}
