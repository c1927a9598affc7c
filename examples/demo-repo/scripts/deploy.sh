#!/usr/bin/env bash
# Build the web app and the API image, then roll them out to one environment.
set -euo pipefail

env="${1:?usage: deploy.sh <staging|production>}"
tag="$(git rev-parse --short HEAD)"

npm ci
npm run build
docker build -t "registry.example.com/larkspur-api:${tag}" services/api
docker push "registry.example.com/larkspur-api:${tag}"
kubectl --context "${env}" set image deployment/larkspur-api api="registry.example.com/larkspur-api:${tag}"
kubectl --context "${env}" rollout status deployment/larkspur-api --timeout=120s
