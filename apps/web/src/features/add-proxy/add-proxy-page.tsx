// Placeholder until its issue fills it: the real title and an honest empty state.
export default function AddProxyPage() {
  return <section><h1>Add Proxies</h1></section>;
}
