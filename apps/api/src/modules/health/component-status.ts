import type { HealthResponse } from '@altwise/contracts/health';

/** The status every adapter (database, queue, storage) reports for `GET /api/v1/health`. */
export type ComponentStatus = HealthResponse['database'];
