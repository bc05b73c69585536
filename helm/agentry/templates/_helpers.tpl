{{- define "agentry.fullname" -}}{{ .Release.Name }}-agentry{{- end -}}

{{- define "agentry.labels" -}}
app.kubernetes.io/name: agentry
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ .Chart.Name }}-{{ .Chart.Version }}
{{- end -}}

{{/* Selector of one component: (dict "root" $ "component" "gateway") */}}
{{- define "agentry.selector" -}}
app.kubernetes.io/name: agentry
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "agentry.credentialsSecret" -}}
{{- if .Values.secrets.existingSecret }}{{ .Values.secrets.existingSecret }}{{ else }}{{ include "agentry.fullname" . }}-credentials{{ end -}}
{{- end -}}

{{- define "agentry.connectionsSecret" -}}
{{- if .Values.connections.existingSecret }}{{ .Values.connections.existingSecret }}{{ else }}{{ include "agentry.fullname" . }}-connections{{ end -}}
{{- end -}}

{{- define "agentry.databaseUrl" -}}
{{- if .Values.bundled.postgres.enabled -}}
postgresql://postgres:{{ required "bundled.postgres.password is required" .Values.bundled.postgres.password | urlquery }}@{{ include "agentry.fullname" . }}-postgres:5432/agentry
{{- else -}}
{{ required "connections.databaseUrl (or connections.existingSecret, or bundled.postgres.enabled) is required" .Values.connections.databaseUrl }}
{{- end -}}
{{- end -}}

{{- define "agentry.redisUrl" -}}
{{- if .Values.bundled.redis.enabled -}}
redis://{{ include "agentry.fullname" . }}-redis:6379
{{- else -}}
{{ required "connections.redisUrl (or connections.existingSecret, or bundled.redis.enabled) is required" .Values.connections.redisUrl }}
{{- end -}}
{{- end -}}

{{- define "agentry.natsUrl" -}}
{{- if .Values.bundled.nats.enabled -}}
nats://{{ include "agentry.fullname" . }}-nats:4222
{{- else -}}
{{ required "connections.natsUrl (or connections.existingSecret, or bundled.nats.enabled) is required" .Values.connections.natsUrl }}
{{- end -}}
{{- end -}}

{{/* Environment every service container gets: settings from the ConfigMap, URLs and credentials from Secrets. */}}
{{- define "agentry.envFrom" -}}
- configMapRef: { name: {{ include "agentry.fullname" . }}-config }
- secretRef: { name: {{ include "agentry.connectionsSecret" . }} }
{{- end -}}

{{- define "agentry.credentialsEnv" -}}
{{- $secret := include "agentry.credentialsSecret" . -}}
- name: AGENTRY_JWT_SECRET
  valueFrom: { secretKeyRef: { name: {{ $secret }}, key: jwtSecret } }
- name: AGENTRY_ADMIN_PASSWORD
  valueFrom: { secretKeyRef: { name: {{ $secret }}, key: adminPassword } }
- name: AGENTRY_MASTER_KEY
  valueFrom: { secretKeyRef: { name: {{ $secret }}, key: masterKey } }
- name: ANTHROPIC_API_KEY
  valueFrom: { secretKeyRef: { name: {{ $secret }}, key: anthropicApiKey, optional: true } }
- name: OPENAI_API_KEY
  valueFrom: { secretKeyRef: { name: {{ $secret }}, key: openaiApiKey, optional: true } }
{{- end -}}
