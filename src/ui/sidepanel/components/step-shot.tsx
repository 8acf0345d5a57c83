import { useEffect, useRef, useState } from 'preact/hooks';
import type { WorkerPort } from '../port';
import { stepShotOf, type StepShotView } from '../step-shots';
import { ZoomFrame } from './zoom-frame';

/**
 * A step's picture of the page, small beside the step, asked of the worker (`run_screenshot`) when the
 * step shows: the step's event only says there is one. A click opens it large and zoomable.
 */
export function StepShot(props: { port: WorkerPort; runId: string; step: number }): preact.JSX.Element | null {
  const { port, runId, step } = props;
  const [shot, setShot] = useState<StepShotView | 'missing' | undefined>(undefined);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    let current = true;
    // Both outcomes end in a picture or 'missing': the chain cannot reject.
    void port
      .request('run_screenshot', { run_id: runId, step })
      .then(
        (response) => (response.ok ? (stepShotOf(response.result) ?? 'missing') : 'missing'),
        // A worker that went away answers nothing: the step shows no picture rather than loading for ever.
        () => 'missing' as const,
      )
      .then((view) => {
        if (current) {
          setShot(view);
        }
      });
    return () => {
      current = false;
    };
  }, [port, runId, step]);
  if (shot === undefined) {
    return <div class="step-shot-slot muted">Loading the picture…</div>;
  }
  if (shot === 'missing') {
    return <p class="step-shot-missing muted">The picture of this step is no longer kept.</p>;
  }
  const alt = `The page at step ${step}, as the agent saw it`;
  return (
    <>
      <button
        type="button"
        class="step-shot-open"
        aria-label={`Open the picture of step ${step} larger`}
        onClick={() => setOpen(true)}
      >
        <img class="step-shot" alt={alt} src={shot.src} />
      </button>
      {open && <StepShotViewer src={shot.src} alt={alt} step={step} onClose={() => setOpen(false)} />}
    </>
  );
}

/**
 * The picture large, in a modal dialog, zoomable as the Page view's screenshot. Close unmounts it at once;
 * Escape closes the dialog, whose close event unmounts it.
 */
function StepShotViewer(props: { src: string; alt: string; step: number; onClose: () => void }): preact.JSX.Element {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element !== null && !element.open) {
      element.showModal();
    }
  }, []);
  return (
    <dialog ref={dialog} class="step-shot-viewer" id="step-shot-viewer" data-step={props.step} onClose={props.onClose}>
      <div class="row">
        <strong>Step {props.step}</strong>
        <button type="button" id="step-shot-close" class="step-shot-close" onClick={props.onClose}>
          Close
        </button>
      </div>
      <ZoomFrame idPrefix="step-shot-" subject={`the picture of step ${props.step}`}>
        <img id="step-shot-large" class="screenshot" alt={props.alt} src={props.src} />
      </ZoomFrame>
    </dialog>
  );
}
