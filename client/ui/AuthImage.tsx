import { useEffect, useState } from 'preact/hooks';
import { authHeaders } from '../api/client';

/**
 * Photo and signature files need the bearer token, which an <img src> cannot send: fetched, then
 * shown from a blob URL that is revoked when the image goes away. `linked` opens it full size.
 */
export function AuthImage({ url, alt, linked = false }: { url: string; alt: string; linked?: boolean }) {
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let objectUrl: string | null = null;
    let live = true;
    fetch(url, { headers: authHeaders() })
      .then((r) => (r.ok ? r.blob() : Promise.reject(new Error(String(r.status)))))
      .then((b) => {
        if (live) {
          objectUrl = URL.createObjectURL(b);
          setSrc(objectUrl);
        }
      })
      .catch(() => {
        if (live) setFailed(true);
      });
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url]);
  if (failed) return <div class="state">Image unavailable</div>;
  if (!src) return <span class="loader" aria-label="Loading image" />;
  return linked ? (
    <a href={src} target="_blank" rel="noopener">
      <img src={src} alt={alt} />
    </a>
  ) : (
    <img src={src} alt={alt} />
  );
}
