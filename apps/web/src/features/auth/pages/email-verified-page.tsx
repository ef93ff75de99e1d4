// Placeholder until its issue fills it: the real title and an honest empty state.
export default function EmailVerifiedPage() {
  return <section><h1>E-mail verified</h1></section>;
}
