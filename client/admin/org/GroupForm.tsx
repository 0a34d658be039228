import { useState } from 'preact/hooks';
import type { z } from 'zod';
import type { Permission } from '../../../shared/permissions';
import { PermissionGroupCreate, type PermissionGroup } from '../../../shared/schemas/org';
import { api, errorMessage, fieldErrors } from '../../api/client';
import { zodErrors } from '../../app/zodErrors';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { Field, TextField } from '../../ui/Field';
import { ORG_PATHS } from '../routes/paths';
import { PermissionGrid } from './PermissionGrid';

export type Group = z.infer<typeof PermissionGroup>;

/** Create or edit a permission group; every field is sent, so an edit never resets one that was left alone. */
export function GroupForm({ group, onClose, onSaved }: { group: Group | null; onClose: () => void; onSaved: (g: Group) => void }) {
  const [name, setName] = useState(group?.name ?? '');
  const [description, setDescription] = useState(group?.description ?? '');
  const [perms, setPerms] = useState<Set<Permission>>(new Set(group?.permissions ?? []));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const save = async () => {
    const parsed = PermissionGroupCreate.safeParse({ name, description, permissions: [...perms].sort() });
    if (!parsed.success) {
      setErrors(zodErrors(parsed.error));
      setFormError('Check the highlighted fields.');
      return;
    }
    setBusy(true);
    setFormError(null);
    try {
      const saved = group
        ? await api.patch<Group>(ORG_PATHS.group(group.id), parsed.data)
        : await api.post<Group>(ORG_PATHS.groups, parsed.data);
      onSaved(saved);
    } catch (err) {
      setErrors(fieldErrors(err));
      setFormError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      title={group ? `Edit ${group.name}` : 'New permission group'}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" busy={busy} onClick={() => void save()}>
            {group ? 'Save group' : 'Create group'}
          </Button>
        </>
      }
    >
      <div class="stack">
        {formError && (
          <div class="form-error" role="alert">
            {formError}
          </div>
        )}
        <div class="form-grid">
          <TextField
            label="Name"
            name="name"
            value={name}
            onValue={(v) => {
              setName(v);
              setErrors(({ name: _n, ...rest }) => rest);
            }}
            error={errors.name}
            required
            maxLength={100}
          />
          <Field label="Description" error={errors.description} wide>
            {({ id, describedBy }) => (
              <textarea
                id={id}
                name="description"
                class="input"
                rows={2}
                style={{ minHeight: '64px' }}
                maxLength={500}
                value={description}
                aria-describedby={describedBy}
                onInput={(e) => setDescription((e.currentTarget as HTMLTextAreaElement).value)}
              />
            )}
          </Field>
        </div>
        <PermissionGrid value={perms} onValue={setPerms} />
        {errors.permissions && (
          <span class="error" role="alert">
            {errors.permissions}
          </span>
        )}
        <p class="muted small">Members keep their role's own permissions and gain these from their next request.</p>
      </div>
    </Dialog>
  );
}
