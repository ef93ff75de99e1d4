// Placeholder until its issue fills it: the real title and an honest empty state.
export default function ResetPasswordRequestPage() {
  return <section><h1>Reset password</h1></section>;
}
