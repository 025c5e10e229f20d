export function SignedOut() {
  return (
    <section className="screen narrow" aria-labelledby="signed-out-title">
      <h1 id="signed-out-title" tabIndex={-1}>
        Signed out
      </h1>
      <p>This browser has no session with Agent Desk, or the session has ended.</p>
      <p>
        Open the one-time login link that <code>npm run serve</code> printed in its terminal, or use the desktop app. The link works once; start the
        server again for a new one.
      </p>
    </section>
  );
}
