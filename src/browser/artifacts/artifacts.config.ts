import { z } from 'zod';

/**
 * The config fields of the artifact watchdogs (downloads, storage state, HAR recording), as
 * browser-use names them. Paths are file names relative to the output folder: in Node `output_dir` (an
 * absolute path only when it lies inside it), in the extension the tabpilot folder under the person's
 * downloads. Where a path lands is checked when the session starts, naming the field.
 */
const ArtifactPath = z.string().min(1);

export const ArtifactsConfigShape = {
  downloads_path: ArtifactPath.nullable()
    .default(null)
    .describe(
      'Node: the folder downloads are saved in (null: "downloads" under output_dir). The extension always saves into Downloads/tabpilot',
    ),
  auto_download_pdfs: z
    .boolean()
    .default(true)
    .describe('Save a PDF the browser would show in its viewer as a download, so the session has the file'),
  storage_state: ArtifactPath.nullable()
    .default(null)
    .describe(
      "A storage-state file in Playwright's format (cookies and localStorage): loaded when the session connects, saved back when it stops",
    ),
  record_har_path: ArtifactPath.nullable()
    .default(null)
    .describe('Record the network traffic of the controlled tabs to this HAR 1.2 file (written as it goes)'),
  record_har_content: z
    .enum(['omit', 'embed', 'attach'])
    .default('embed')
    .describe('Response bodies in the HAR: left out, embedded in it, or attached as files in a folder beside it'),
  record_har_mode: z
    .enum(['full', 'minimal'])
    .default('full')
    .describe('full: every request; minimal: the documents and the requests to their own origin'),
  record_har_max_body_bytes: z
    .number()
    .int()
    .min(0)
    .default(1_048_576)
    .describe('Response bodies larger than this are not kept in the HAR (their size still is)'),
  record_har_redact_headers: z
    .array(z.string().min(1))
    .default(['cookie', 'set-cookie', 'authorization', 'proxy-authorization'])
    .describe(
      'Header names whose values (and the cookies they carry) the HAR records as "<redacted>"; empty keeps every value',
    ),
};
