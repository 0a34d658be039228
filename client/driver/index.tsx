import { LinkButton } from '../ui/Button';

/**
 * Placeholder for the driver app (owned by the driver-app work, which replaces this file). It is
 * loaded lazily at `#/driver`, so the admin and depot bundles never include driver code.
 */
export default function DriverApp({ path }: { path: string }) {
  return (
    <div class="login-page">
      <div class="card login-card stack" data-testid="driver-app" data-path={path}>
        <div class="logo"><img src="/icon.svg" alt="" />Courier Driver</div>
        <p>The driver app is coming to this address. Until then, drivers sign in on the Courier driver app.</p>
        <LinkButton href="#/login">Staff and company log in</LinkButton>
      </div>
    </div>
  );
}
