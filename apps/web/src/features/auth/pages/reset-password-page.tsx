// Placeholder until its issue fills it: the real title and an honest empty state.
export default function ResetPasswordPage() {
  return <section><h1>New password</h1></section>;
}
