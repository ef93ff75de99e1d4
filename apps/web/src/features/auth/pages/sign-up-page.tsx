// Placeholder until its issue fills it: the real title and an honest empty state.
export default function SignUpPage() {
  return <section><h1>Sign up</h1></section>;
}
