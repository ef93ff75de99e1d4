// Placeholder until its issue fills it: the real title and an honest empty state.
export default function TrafficPage() {
  return <section><h1>Traffic</h1></section>;
}
