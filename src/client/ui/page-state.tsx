import { Alert } from './alert.tsx';
import { Spinner } from './spinner.tsx';

/**
 * A page whose data is on its way: a screen tall, so the footer stays below the fold and nothing moves when
 * the content arrives (CLS).
 */
export function PageLoading({ label }: { label?: string }) {
  return (
    <div className="min-h-svh">
      <Spinner {...(label ? { label } : {})} />
    </div>
  );
}

/** A page whose data could not be had: the message ('Error de conexión' or the server's). */
export function PageError({ message }: { message: string }) {
  return (
    <div className="mx-auto max-w-7xl px-4 py-10">
      <Alert tone="danger">{message}</Alert>
    </div>
  );
}
