# svc in a container: `svc serve` as the unprivileged `node` user, all persisted data (stores, API
# keys, the model cache) in the volume /data. Build: docker build -t svc .   See docs/deploying.md.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json asconfig.json tsconfig.json ./
COPY assembly/ assembly/
COPY bin/ bin/
COPY src/ src/
COPY models/ models/
COPY packages/ packages/
COPY native/pages.c native/heap.cc native/binding.gyp native/
COPY scripts/build-console.ts scripts/build-native.ts scripts/
# the native helper's build tools (it gives free memory back: docs/deploying.md)
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
# npm ci builds the WebAssembly kernels, the native helper, the TypeScript and the web console (the
# `prepare` script); then drop dev tools.
RUN npm ci --no-audit --no-fund && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
# a fixed mmap threshold: large buffers freed go back to the system (docs/memory.md)
ENV NODE_ENV=production SVC_DATA_DIR=/data SVC_LOG=info MALLOC_MMAP_THRESHOLD_=131072
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules/ node_modules/
COPY --from=build /app/bin/ bin/
COPY --from=build /app/dist/ dist/
COPY --from=build /app/build/ build/
COPY --from=build /app/native/build/Release/pages.node native/build/Release/
COPY --from=build /app/models/ models/
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=120s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8080/v1/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "bin/svc.js"]
CMD ["serve", "--port", "8080"]
