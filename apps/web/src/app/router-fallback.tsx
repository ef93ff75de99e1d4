import { Component, type ReactNode } from 'react';

interface State { error: unknown }

/**
 * Spec §8: the generic fallback, 'Unexpected Application Error!' with the status and text or message.
 * Deliberately free of i18n and stores, so it renders whatever broke.
 */
export class RouteErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };
  static getDerivedStateFromError(error: unknown): State { return { error }; }
  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    const e = error as { status?: number; statusText?: string; message?: string };
    const detail = e.status ? `${e.status} ${e.statusText ?? ''}`.trim() : e.message ?? String(error);
    return (
      <main className="fallback" role="alert">
        <h1>Unexpected Application Error!</h1>
        <p>{detail}</p>
        <p><a href="/">Reload</a></p>
      </main>
    );
  }
}
