import { render } from 'preact';
import { App } from './app/App';
import { registerServiceWorker } from './app/serviceWorker';
import './ui/styles.css';

render(<App />, document.getElementById('app') as HTMLElement);
void registerServiceWorker();
