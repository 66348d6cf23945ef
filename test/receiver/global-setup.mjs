// Starts the webhook receiver once for the whole run and hands its port to the Worker's bindings.
import { startReceiver } from './server.mjs';

/** @param {import('vitest/node').TestProject} project */
export default async function setup(project) {
  const server = await startReceiver();
  project.provide('receiverPort', server.address().port);
  return () => new Promise((resolve) => server.close(() => resolve()));
}
