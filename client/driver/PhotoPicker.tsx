import { useEffect, useState } from 'preact/hooks';
import { Button } from '../ui/Button';
import { shrinkPhoto } from './photos';

/** Photos are resized as they are chosen, so what is stored and uploaded is already small. */
export function PhotoPicker({
  photos,
  onChange,
  max,
  label = 'Take photo',
}: {
  photos: Blob[];
  onChange: (p: Blob[]) => void;
  max: number;
  label?: string;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [urls, setUrls] = useState<string[]>([]);
  useEffect(() => {
    const next = photos.map((b) => URL.createObjectURL(b));
    setUrls(next);
    return () => next.forEach((u) => URL.revokeObjectURL(u));
  }, [photos]);

  const add = async (files: FileList | null) => {
    if (!files?.length) return;
    setBusy(true);
    setError('');
    try {
      const room = max - photos.length;
      const chosen = [...files].slice(0, room);
      const small = await Promise.all(chosen.map((f) => shrinkPhoto(f)));
      onChange([...photos, ...small]);
      if (files.length > room) setError(`Only ${max} photos fit; the rest were left out.`);
    } catch (err) {
      setError(`That photo could not be read: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="photos-pick">
      <div class="thumbs">
        {urls.map((u, i) => (
          <figure key={u}>
            <img src={u} alt={`Photo ${i + 1}`} />
            <Button size="small" onClick={() => onChange(photos.filter((_, j) => j !== i))} aria-label={`Remove photo ${i + 1}`}>
              Remove
            </Button>
          </figure>
        ))}
      </div>
      {photos.length < max && (
        <label class={`btn xl file-btn${busy ? ' busy' : ''}`}>
          {busy ? 'Processing…' : `${label} (${photos.length}/${max})`}
          <input
            type="file"
            accept="image/*"
            capture="environment"
            multiple
            class="sr-only"
            data-testid="photo-input"
            onChange={(e) => {
              const el = e.currentTarget as HTMLInputElement;
              void add(el.files).then(() => {
                el.value = '';
              });
            }}
          />
        </label>
      )}
      {error && (
        <div class="form-error" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}
