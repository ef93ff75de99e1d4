// Placeholder until its issue fills it: the real title and an honest empty state.
export default function AccountPage() {
  return <section><h1>Account</h1></section>;
}
