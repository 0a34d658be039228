import { render } from 'preact';
import { TrackApp } from './TrackApp';
import './track.css';

render(<TrackApp />, document.getElementById('track') as HTMLElement);
