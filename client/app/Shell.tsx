import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api/client';
import { Button } from '../ui/Button';
import { ROLE_LABELS } from './access';
import { Banners } from './Banners';
import { activeHref, navFor } from './nav';
import { href, useLocation } from './router';
import { signOut, type Session } from './session';
import { Logo } from '../ui/Logo';

export async function logout(): Promise<void> {
  // The token is revoked on the server when it can be; locally it goes either way.
  try {
    await api.post('auth/logout/');
  } catch {
    /* offline or already expired */
  }
  signOut('logout');
}

/** Top bar, role-aware side menu (a drawer on tablets and phones) and the page. */
export function Shell({ current, children }: { current: Session; children: ComponentChildren }) {
  const { path } = useLocation();
  const [open, setOpen] = useState(false);
  const items = navFor(current.user.role);
  const active = activeHref(path, items);
  useEffect(() => setOpen(false), [path]);
  // The drawer closes on Escape (focus back on the ☰ button) like any other overlay.
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      document.querySelector<HTMLElement>('.menu-toggle')?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);
  const groups = [...new Set(items.map((i) => i.group))];
  return (
    <div class="shell">
      {/* First Tab stop: straight to the page instead of walking the whole menu. */}
      <a
        class="skip-link"
        href="#main"
        onClick={(e) => {
          e.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        Skip to content
      </a>
      <header class="topbar">
        <Button
          class="menu-toggle"
          variant="ghost"
          aria-label="Menu"
          aria-expanded={open}
          aria-controls="sidenav"
          onClick={() => setOpen(!open)}
        >
          ☰
        </Button>
        <a class="brand" href="#/" aria-label="Courier">
          <Logo />
          <span class="brand-name">Courier</span>
        </a>
        <span class="spacer" />
        <div class="who">
          <div>
            <strong>{current.user.name}</strong> · {ROLE_LABELS[current.user.role]}
          </div>
          <div class="email">{current.user.email}</div>
        </div>
        <Button size="small" class="logout" onClick={() => void logout()}>
          Log out
        </Button>
      </header>
      {open && <div class="drawer-scrim" data-testid="drawer-scrim" aria-hidden="true" onClick={() => setOpen(false)} />}
      <nav id="sidenav" class={`sidenav${open ? ' open' : ''}`} aria-label="Main">
        {groups.map((g) => (
          <div key={g}>
            <div class="group">{g}</div>
            {items
              .filter((i) => i.group === g)
              .map((i) => (
                <a key={i.href} href={href(i.href)} aria-current={active === i.href ? 'page' : undefined}>
                  {i.label}
                </a>
              ))}
          </div>
        ))}
      </nav>
      <div style={{ minWidth: 0 }}>
        <Banners />
        <main class="content" id="main" tabIndex={-1}>
          {children}
        </main>
      </div>
    </div>
  );
}
