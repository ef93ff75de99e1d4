// Placeholder until its issue fills it: the real title and an honest empty state.
export default function DocumentationPage() {
  return <section><h1>Documentation</h1></section>;
}
