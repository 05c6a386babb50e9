/** Keeps one failing page from blanking the whole dashboard: it shows the error and a way back. */
import { Component, type ReactNode } from 'react';

export class ErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error): { error: Error } {
    return { error };
  }

  override render(): ReactNode {
    if (this.state.error !== null) {
      return (
        <div className="error-box" role="alert">
          <strong>This page failed: </strong>
          {this.state.error.message}{' '}
          <button type="button" onClick={() => this.setState({ error: null })}>
            Try again
          </button>
        </div>
      );
    }
    return this.props.children;
  }
}
