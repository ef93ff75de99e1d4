// Placeholder until its issue fills it: the real title and an honest empty state.
export default function MailboxPage() {
  return <section><h1>Mailbox</h1></section>;
}
