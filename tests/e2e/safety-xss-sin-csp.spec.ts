import { test } from './safety-shop.ts';
import { xssJourneys } from './safety-xss-journeys.ts';

/** XSS with the CSP bypassed: escaping and the sanitizer must hold on their own (see safety-shop.ts). */

test.describe.configure({ mode: 'serial' });

xssJourneys(true);
