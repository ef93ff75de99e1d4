// Placeholder until its issue fills it: the real title and an honest empty state.
export default function PurchasesPage() {
  return <section><h1>Purchases</h1></section>;
}
