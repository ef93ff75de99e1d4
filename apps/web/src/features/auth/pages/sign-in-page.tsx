// Placeholder until its issue fills it: the real title and an honest empty state.
export default function SignInPage() {
  return <section><h1>Sign in</h1></section>;
}
