import { Counter, Histogram, Registry } from 'prom-client';

/**
 * Latency and errors of the calls to the outside services the shop depends on (Openpay, the PAC), measured where each
 * adapter is made (payments/service.ts createPaymentGateway… and invoices/context.ts): the adapters themselves are
 * not touched. One registry per process (the adapters are made outside any app), merged into /metrics.
 */
export const adapterRegistry = new Registry();

const calls = new Histogram({
  name: 'tienda_external_call_duration_seconds',
  help: 'Duración de las llamadas a servicios externos (Openpay, PAC) por operación',
  labelNames: ['service', 'operation', 'outcome'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
  registers: [adapterRegistry],
});

const errors = new Counter({
  name: 'tienda_external_call_errors_total',
  help: 'Llamadas a servicios externos (Openpay, PAC) que terminaron en error, por operación y tipo de error',
  labelNames: ['service', 'operation', 'error'] as const,
  registers: [adapterRegistry],
});

const errorName = (error: unknown) =>
  error instanceof Error ? error.constructor.name || error.name : typeof error;

/**
 * The same adapter, each of its methods timed: `service` names it in the metrics ('openpay', 'pac-sw'…). A method
 * that throws counts as an error with the error's class name; what it answers (a declined card is an answer) is the
 * adapter's business.
 */
export function instrumented<T extends object>(service: string, adapter: T): T {
  return new Proxy(adapter, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (typeof value !== 'function' || typeof property !== 'string' || property === 'constructor')
        return value;
      return (...args: unknown[]) => {
        const end = calls.startTimer({ service, operation: property });
        let result: unknown;
        try {
          result = value.apply(target, args);
        } catch (error) {
          end({ outcome: 'error' });
          errors.inc({ service, operation: property, error: errorName(error) });
          throw error;
        }
        if (!(result instanceof Promise)) {
          end({ outcome: 'ok' });
          return result;
        }
        return result.then(
          (answer) => {
            end({ outcome: 'ok' });
            return answer;
          },
          (error: unknown) => {
            end({ outcome: 'error' });
            errors.inc({ service, operation: property, error: errorName(error) });
            throw error;
          },
        );
      };
    },
  });
}
