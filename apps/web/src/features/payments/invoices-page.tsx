// Placeholder until its issue fills it: the real title and an honest empty state.
export default function InvoicesPage() {
  return <section><h1>Invoices</h1></section>;
}
