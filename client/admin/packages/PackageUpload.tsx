import { PROOF_WORDS_HELP } from '../../../shared/proofWords';
import { useRef, useState } from 'preact/hooks';
import type { UploadAnswer, UploadReportRow } from '../../../shared/schemas/package';
import type { z } from 'zod';
import { errorMessage } from '../../api/client';
import { PATHS } from '../../api/paths';
import { uploadWithProgress } from '../../api/upload';
import type { Session } from '../../app/session';
import { Badge } from '../../ui/Badge';
import { Button, LinkButton } from '../../ui/Button';
import { PrintLabels } from './actions/PrintLabels';
import { Counter } from '../../ui/Counter';
import { CheckField, SelectField } from '../../ui/Field';
import { REFS } from '../resource/declarations';
import { useRefOptions } from '../resource/refOptions';
import { UploadLocations } from './GeocodeProgress';
import { downloadTemplate } from './uploadTemplate';

type Answer = z.infer<typeof UploadAnswer>;
const MAX_BYTES = 10 * 1024 * 1024;

function isExcel(file: File): boolean {
  return /\.xlsx$/i.test(file.name) || file.type === 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
}

/** CSV or .xlsx upload with a progress bar and the server's per-row report. */
export default function PackageUpload({ session }: { session: Session }) {
  const isCompany = session.user.role === 'company';
  const companies = useRefOptions(isCompany ? undefined : REFS.company);
  const [file, setFile] = useState<File | null>(null);
  const [company, setCompany] = useState('');
  const [partial, setPartial] = useState(true);
  const [progress, setProgress] = useState<number | null>(null);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [error, setError] = useState('');
  const [over, setOver] = useState(false);
  const abort = useRef<(() => void) | null>(null);

  const choose = (f: File | null | undefined) => {
    setAnswer(null);
    setError('');
    if (!f) return;
    if (!/\.(csv|xlsx)$/i.test(f.name)) {
      setError('Choose a .csv or .xlsx file');
      return;
    }
    if (f.size > MAX_BYTES) {
      setError('The file is larger than 10 MB; split it into smaller files');
      return;
    }
    setFile(f);
  };

  const send = async () => {
    if (!file) {
      setError('Choose a file first');
      return;
    }
    const form = new FormData();
    form.append('file', file, file.name);
    if (company) form.append('company', company);
    setError('');
    setAnswer(null);
    setProgress(0);
    const job = uploadWithProgress<Answer>(isExcel(file) ? PATHS.packageExcelUpload : PATHS.packageCsvUpload, form, setProgress, {
      partial: partial ? 'true' : 'false',
    });
    abort.current = job.abort;
    try {
      setAnswer(await job.promise);
    } catch (err) {
      if (!(err instanceof DOMException && err.name === 'AbortError')) setError(errorMessage(err));
    } finally {
      abort.current = null;
      setProgress(null);
    }
  };

  const rejected = answer?.report.filter((r: UploadReportRow) => r.status === 'rejected') ?? [];
  return (
    <section aria-labelledby="upload-title" class="stack">
      <div class="page-head">
        <h1 id="upload-title">Upload packages</h1>
        <span class="spacer" />
        <LinkButton href="#/packages">Back to packages</LinkButton>
      </div>
      <div class="card stack">
        <div class="muted upload-help" style={{ margin: 0 }}>
          <p style={{ margin: 0 }}>
            A CSV or Excel (.xlsx) file with a header row; columns use the package field names. <span class="mono">hawb</span> (the tracking
            number) is required and unique; the rest are optional:
          </p>
          <ul style={{ margin: '0.35rem 0', paddingLeft: '1.2rem' }}>
            <li>
              <span class="mono">customer_name</span>, <span class="mono">customer_address</span>, <span class="mono">postcode</span>,
              <span class="mono"> postcode_name</span> (the suburb, as written on the parcel)
            </li>
            <li>
              <span class="mono">customer_phone</span> (stored in international form, e.g. 0417 123 456 becomes +61417123456) and
              <span class="mono"> recipient_email</span> (where the recipient's messages go)
            </li>
            <li>
              <span class="mono">weight</span> (kg), <span class="mono">length</span>, <span class="mono">width</span>,{' '}
              <span class="mono">height</span> (cm),
              <span class="mono"> count</span>, <span class="mono">description_of_goods</span>, <span class="mono">delivery_date</span>{' '}
              (YYYY-MM-DD)
            </li>
            <li>
              <span class="mono">window_start</span>, <span class="mono">window_end</span> (HH:MM, the delivery window),{' '}
              <span class="mono">service_s</span> (seconds at the door), <span class="mono">skills</span> (what the stop needs of the van
              and driver, separated by semicolons: refrigerated; two-person)
            </li>
            <li>
              <span class="mono">cod_amount_cents</span> (cash to collect on delivery, in cents: 4550 is $45.50; needs the parcel's company)
              and <span class="mono">proof_requirements</span> (what the door needs beyond the company's default: {PROOF_WORDS_HELP}, e.g.{' '}
              <span class="mono">signature + age:18 + code</span>)
            </li>
          </ul>
          <Button size="small" onClick={downloadTemplate}>
            Download a template (CSV)
          </Button>
        </div>
        <label
          class={`dropzone${over ? ' over' : ''}`}
          onDragOver={(e) => {
            e.preventDefault();
            setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={(e) => {
            e.preventDefault();
            setOver(false);
            choose(e.dataTransfer?.files[0]);
          }}
        >
          <div style={{ fontWeight: 700, fontSize: '1.1rem' }}>{file ? file.name : 'Drop a file here or choose one'}</div>
          {file && (
            <div class="muted">
              {(file.size / 1024).toFixed(1)} KB · {isExcel(file) ? 'Excel' : 'CSV'}
            </div>
          )}
          <input
            type="file"
            name="file"
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            style={{ marginTop: '0.75rem' }}
            onChange={(e) => choose((e.currentTarget as HTMLInputElement).files?.[0])}
          />
        </label>
        <div class="form-grid">
          {!isCompany && (
            <SelectField
              name="company"
              label="Company"
              value={company}
              onValue={setCompany}
              options={companies.options}
              placeholder="From the file's company column"
              hint="For rows that do not name their company"
            />
          )}
          <CheckField name="partial" label="Keep the good rows when some are rejected" checked={partial} onValue={setPartial} />
        </div>
        {error && (
          <div class="form-error" role="alert">
            {error}
          </div>
        )}
        {progress !== null && (
          <div class="stack" role="status" aria-live="polite">
            <div class="progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(progress * 100)}>
              <div style={{ width: `${Math.round(progress * 100)}%` }} />
            </div>
            <div class="muted">{progress < 1 ? `Uploading… ${Math.round(progress * 100)}%` : 'Checking rows…'}</div>
          </div>
        )}
        <div class="row">
          <Button variant="primary" busy={progress !== null} disabled={!file} onClick={() => void send()}>
            Upload
          </Button>
          {progress !== null && <Button onClick={() => abort.current?.()}>Cancel</Button>}
        </div>
      </div>
      {answer && (
        <div class="card stack" data-testid="upload-report">
          <h2 style={{ margin: 0 }}>Report</h2>
          <p style={{ margin: 0 }}>{answer.message}</p>
          <div class="counters">
            <Counter label="Created" value={answer.created} tone="ok" />
            <Counter label="Rejected" value={answer.rejected} tone={answer.rejected ? 'bad' : undefined} />
          </div>
          {answer.created > 0 && <UploadLocations located={answer.located} job={answer.geocode_job} />}
          {rejected.length > 0 && (
            <div class="table-wrap">
              <table class="data">
                <caption class="sr-only">Rejected rows</caption>
                <thead>
                  <tr>
                    <th>Row</th>
                    <th>Tracking no</th>
                    <th>Result</th>
                    <th>Problems</th>
                  </tr>
                </thead>
                <tbody>
                  {rejected.slice(0, 500).map((r) => (
                    <tr key={r.row}>
                      <td class="num">{r.row}</td>
                      <td class="mono">{r.hawb ?? '—'}</td>
                      <td>
                        <Badge tone="bad">rejected</Badge>
                      </td>
                      <td>{r.errors.map((e) => `${e.path ? `${e.path}: ` : ''}${e.message}`).join('; ')}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {answer.created > 0 && (
            <div class="row">
              <LinkButton href="#/packages?status=created" variant="primary">
                See the new packages
              </LinkButton>
              <PrintLabels
                ids={answer.report.flatMap((r: UploadReportRow) => (r.id != null && r.status !== 'rejected' ? [r.id] : []))}
                label="Labels for this upload"
              />
            </div>
          )}
        </div>
      )}
    </section>
  );
}
