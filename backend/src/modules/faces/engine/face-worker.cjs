/**
 * The face model's thread (node:worker_threads): loads TensorFlow.js on its WebAssembly backend and
 * face-api's weights once, then answers one message at a time. The models run synchronously on this
 * thread, so the process's event loop (requests, queue jobs) never waits on them. Plain CommonJS,
 * run by Node as it is, from src in the tests and from dist in production (the build copies it).
 *
 * In:  { id, op: 'analyze', rgb: Uint8Array (transferred), width, height, detector, descriptors }
 *      descriptors: 'single' (only when exactly one face is found), 'all' or 'none'
 * Out: { id, faces: [{ box, score, landmarks: [[x, y] x 68], descriptor?: number[128] }], ms } or { id, error }
 */
const { parentPort, workerData } = require('node:worker_threads');

const log = () => undefined; // the models print nothing; errors go back to the caller

async function load() {
  const tf = require(workerData.modules.tfjs);
  require(workerData.modules.wasm);
  const faceapi = require(workerData.modules.faceApi);
  await tf.setBackend('wasm');
  await tf.ready();
  const dir = workerData.modelDir;
  await faceapi.nets.ssdMobilenetv1.loadFromDisk(dir);
  await faceapi.nets.faceLandmark68Net.loadFromDisk(dir);
  await faceapi.nets.faceRecognitionNet.loadFromDisk(dir);
  return { tf, faceapi };
}

const ready = load();

/** Detections, their 68 landmarks and (as asked) their 128-number descriptors, in the image's pixels. */
async function analyze({ rgb, width, height, minConfidence, descriptors }) {
  const { tf, faceapi } = await ready;
  const input = tf.tensor3d(rgb, [height, width, 3], 'int32');
  try {
    const options = new faceapi.SsdMobilenetv1Options({ minConfidence, maxResults: 10 });
    const found = await faceapi.detectAllFaces(input, options).withFaceLandmarks();
    const describe = descriptors === 'all' || (descriptors === 'single' && found.length === 1);
    const faces = [];
    for (const face of found) {
      const box = face.detection.box;
      const out = {
        box: { x: box.x, y: box.y, width: box.width, height: box.height },
        score: face.detection.score,
        landmarks: face.landmarks.positions.map((p) => [p.x, p.y]),
      };
      if (describe) {
        const [aligned] = await faceapi.extractFaceTensors(input, [face.alignedRect]);
        try {
          const descriptor = await faceapi.nets.faceRecognitionNet.computeFaceDescriptor(aligned);
          out.descriptor = Array.from(descriptor);
        } finally {
          aligned.dispose();
        }
      }
      faces.push(out);
    }
    return faces;
  } finally {
    input.dispose();
  }
}

parentPort.on('message', async (message) => {
  const started = performance.now();
  try {
    if (message.op === 'warm') {
      await ready;
      parentPort.postMessage({ id: message.id, faces: [], ms: performance.now() - started });
      return;
    }
    const faces = await analyze(message);
    parentPort.postMessage({ id: message.id, faces, ms: performance.now() - started });
  } catch (error) {
    log(error);
    parentPort.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) });
  }
});
