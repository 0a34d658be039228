import { useState } from 'preact/hooks';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { TextField } from '../../ui/Field';
import { DEFAULT_TILE_URL, getTileUrl, setTileUrl } from '../../ui/map';

/** The tile server of this browser's maps (a courier may run its own, or pay for a provider). */
export function TileSettings({ onClose, onSaved }: { onClose: () => void; onSaved: () => void }) {
  const [url, setUrl] = useState(getTileUrl());
  const [error, setError] = useState<string | undefined>();
  const save = () => {
    try {
      setTileUrl(url);
      onSaved();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  };
  return (
    <Dialog
      title="Map tiles"
      narrow
      onClose={onClose}
      footer={
        <>
          <Button onClick={() => setUrl(DEFAULT_TILE_URL)}>Use OpenStreetMap</Button>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" onClick={save}>
            Save
          </Button>
        </>
      }
    >
      <TextField
        label="Tile URL"
        value={url}
        onValue={(v) => {
          setUrl(v);
          setError(undefined);
        }}
        error={error}
        hint="With {z}, {x} and {y}, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png. Saved in this browser."
      />
    </Dialog>
  );
}
