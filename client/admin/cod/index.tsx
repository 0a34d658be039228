import type { Session } from '../../app/session';
import CashHandover from './CashHandover';
import CodReport from './CodReport';
import Shippers from './Shippers';
import './cod.css';

/** Cash on delivery for the office (issue 34): `/cod/cash` (float and hand-over), `/cod/report`, `/cod/shippers` (owed and paid out). */
export default function Cod({ path, session }: { path: string; session: Session }) {
  if (path === '/cod/report') return <CodReport />;
  if (path === '/cod/shippers') return <Shippers session={session} />;
  return <CashHandover />;
}
