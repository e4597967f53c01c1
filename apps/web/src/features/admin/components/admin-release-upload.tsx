import { isClientError } from '@portal/client';
import { RELEASE_FILE_NAME, RELEASE_PLATFORMS, RELEASE_VERSION } from '@portal/contract';
import { Loader2Icon, UploadIcon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField, fieldProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { ERROR_TOAST_MS } from '@/config/constants';
import { toast } from '@/lib/toast';
import { useUploadReleaseMutation } from '../api/admin-releases';
import { platformKey, platformLabel } from './admin-release-platforms';

type Field = 'file' | 'platform' | 'version';
type Errors = Partial<Record<Field, string>>;

/** The form's checks before anything is sent: the server's rules (docs/operations.md), each under its field. */
export function uploadErrors(input: { file: File | undefined; platform: string; version: string }): Errors {
  const errors: Errors = {};
  if (!input.file) errors.file = 'Choose the build to upload';
  else if (input.file.size === 0) errors.file = 'The file is empty';
  else if (!RELEASE_FILE_NAME.test(input.file.name))
    errors.file =
      "The file's name must be 1 to 128 letters, digits, dots, dashes or underscores, starting with a letter or digit: rename it and choose it again";
  if (!input.platform) errors.platform = 'Choose the platform the build is for';
  if (!input.version.trim()) errors.version = 'Version is required';
  else if (!RELEASE_VERSION.test(input.version.trim()))
    errors.version = 'Version must be major.minor.patch.revision, e.g. 1.4.2.0 (each 0 to 999999)';
  return errors;
}

/** Which of the form's fields a server refusal names (the query's fields, or `body` for the file). */
const SERVER_FIELDS: Record<string, Field> = {
  os: 'platform',
  arch: 'platform',
  version: 'version',
  file_name: 'file',
  body: 'file',
  'content-type': 'file',
};

function serverErrors(err: unknown): Errors {
  if (!isClientError(err)) return {};
  const errors: Errors = {};
  // One field named: its whole rule, which may hold a "; " the client's split would drop.
  const message = err.fields.length === 1 ? err.description.replace(/^[^:]+: /, '') : err.message;
  for (const name of err.fields) {
    const field = SERVER_FIELDS[name];
    if (field) errors[field] = message;
  }
  return errors;
}

/** Upload a hub build: the file, its platform and version; the list refreshes when it is stored. */
export function AdminReleaseUpload() {
  const upload = useUploadReleaseMutation();
  const formRef = React.useRef<HTMLFormElement>(null);
  const [file, setFile] = React.useState<File>();
  const [platform, setPlatform] = React.useState('');
  const [version, setVersion] = React.useState('');
  const [errors, setErrors] = React.useState<Errors>({});

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (upload.isPending) return;
    const found = uploadErrors({ file, platform, version });
    setErrors(found);
    const chosen = RELEASE_PLATFORMS.find((p) => platformKey(p) === platform);
    if (Object.keys(found).length || !file || !chosen) return;
    try {
      const release = await upload.mutateAsync({ file, os: chosen.os, arch: chosen.arch, version: version.trim() });
      toast.success('Build uploaded', {
        description: `${release.version} for ${platformLabel(release)}${release.offered ? ' is offered to customers now.' : ' is stored; a higher version is offered.'}`,
      });
      formRef.current?.reset();
      setFile(undefined);
      setPlatform('');
      setVersion('');
    } catch (err) {
      const onFields = serverErrors(err);
      setErrors(onFields);
      if (!Object.keys(onFields).length)
        toast.error('Build not uploaded', {
          description: err instanceof Error ? err.message : 'Please try again.',
          duration: ERROR_TOAST_MS,
        });
    }
  }

  const clear = (field: Field) => setErrors((prev) => ({ ...prev, [field]: undefined }));

  return (
    <Card>
      <CardHeader>
        <CardTitle>Upload a build</CardTitle>
        <CardDescription>
          A new build of the hub for one platform. Customers are offered the highest version of each platform that is
          not withdrawn; a version cannot be uploaded twice.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          ref={formRef}
          noValidate
          onSubmit={submit}
          aria-label="Upload a build"
          className="grid gap-4 md:grid-cols-[minmax(0,1fr)_14rem_10rem_auto] md:items-start"
        >
          <FormField
            id="release-file"
            label="Build file"
            error={errors.file}
            hint="The installer or package, as customers download it."
          >
            <Input
              {...fieldProps('release-file', errors.file)}
              aria-describedby={errors.file ? 'release-file-error' : 'release-file-hint'}
              type="file"
              onChange={(e) => {
                setFile(e.target.files?.[0]);
                clear('file');
              }}
            />
          </FormField>
          <FormField id="release-platform" label="Platform" error={errors.platform}>
            <NativeSelect
              {...fieldProps('release-platform', errors.platform)}
              value={platform}
              onChange={(e) => {
                setPlatform(e.target.value);
                clear('platform');
              }}
            >
              <option value="">Choose a platform</option>
              {RELEASE_PLATFORMS.map((p) => (
                <option key={platformKey(p)} value={platformKey(p)}>
                  {platformLabel(p)}
                </option>
              ))}
            </NativeSelect>
          </FormField>
          <FormField id="release-version" label="Version" error={errors.version} hint="e.g. 1.4.2.0">
            <Input
              {...fieldProps('release-version', errors.version)}
              aria-describedby={errors.version ? 'release-version-error' : 'release-version-hint'}
              autoComplete="off"
              inputMode="decimal"
              value={version}
              onChange={(e) => {
                setVersion(e.target.value);
                clear('version');
              }}
            />
          </FormField>
          <Button
            type="submit"
            className="w-fit md:mt-[1.375rem]"
            disabled={upload.isPending}
            aria-busy={upload.isPending || undefined}
          >
            {upload.isPending ? <Loader2Icon className="animate-spin" aria-hidden /> : <UploadIcon aria-hidden />}
            {upload.isPending ? 'Uploading…' : 'Upload'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
