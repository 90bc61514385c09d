// Last line of defence: a render error shows a message, never a blank page.
import { Component, type ReactNode } from 'react';
import { errorText } from '../engine/protocol';

export class ErrorBoundary extends Component<{ children: ReactNode }, { error: string | null }> {
  state = { error: null as string | null };

  static getDerivedStateFromError(err: unknown) {
    return { error: errorText(err) };
  }

  render() {
    if (this.state.error) {
      return (
        <main className="app">
          <div className="error" role="alert" data-testid="app-error">
            <strong>Reclaim Lab hit an error and stopped drawing.</strong> {this.state.error} Reload the page to start
            again.
          </div>
        </main>
      );
    }
    return this.props.children;
  }
}
