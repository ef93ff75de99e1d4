// Placeholder until its issue fills it: the real title and an honest empty state.
export default function BillingPage() {
  return <section><h1>Billing</h1></section>;
}
