// Placeholder until its issue fills it: the real title and an honest empty state.
export default function ProxiesPage() {
  return <section><h1>Your Proxies</h1></section>;
}
