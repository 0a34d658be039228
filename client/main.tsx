import { render } from 'preact';

function Shell() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: '2rem' }}>
      <h1>Courier</h1>
      <p>The app is loading its screens.</p>
    </main>
  );
}

render(<Shell />, document.getElementById('app') as HTMLElement);
