import type { PersonQuestion } from '../../../protocol/person-questions';

/**
 * What programs ask of the person's own powers (export or import the profile's cookies, record the
 * traffic): who asks, exactly what, and Allow once or Refuse. Nothing is allowed for later: the next
 * request is asked again. An unanswered question is refused when its time runs out.
 */
export function PersonQuestions(props: {
  questions: readonly PersonQuestion[];
  onAnswer: (questionId: string, allow: boolean) => void;
}): preact.JSX.Element | null {
  if (props.questions.length === 0) {
    return null;
  }
  return (
    <section id="person-questions" class="person-questions" aria-label="Programs asking you" role="alert">
      {props.questions.map((question) => (
        <div key={question.id} class="person-question" data-question-id={question.id} data-client={question.client}>
          <p>
            <strong class="client-name">{question.client}</strong> asks to{' '}
            <span class="question-what">{question.what}</span>.
          </p>
          <p class="muted">
            Only you may allow this; unanswered, it is refused at {new Date(question.expires_at).toLocaleTimeString()}.
          </p>
          <div class="row">
            <button type="button" class="primary" data-answer="allow" onClick={() => props.onAnswer(question.id, true)}>
              Allow once
            </button>
            <button type="button" data-answer="refuse" onClick={() => props.onAnswer(question.id, false)}>
              Refuse
            </button>
          </div>
        </div>
      ))}
    </section>
  );
}
