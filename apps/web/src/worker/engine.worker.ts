/// <reference lib="webworker" />
import type { ToWorkerMessage } from '../features/generation/jobTypes.ts';
import { engineScope } from './engineScope.ts';

declare const self: DedicatedWorkerGlobalScope;

const take = engineScope((message, transfer) => self.postMessage(message, transfer));

self.onmessage = (event: MessageEvent<ToWorkerMessage>) => take(event.data);
