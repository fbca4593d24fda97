# Opt-in, not the default: adds a class-data sharing (AppCDS) archive to an image built from
# deploy/docker/Dockerfile, so that the JVM maps the classes a start loads instead of reading and
# verifying each one. It shortens the start only; a pipeline that runs for weeks gains nothing from it.
#
#   docker build -f deploy/docker/Dockerfile --build-arg JAR=target/my-pipeline.jar -t my-pipeline:0.1.0 .
#   docker build -f deploy/docker/class-archive.Dockerfile --build-arg BASE=my-pipeline:0.1.0 \
#     -t my-pipeline:0.1.0-cds .
#   (add --build-arg TRAINING_CONFIG=path/to/pipeline.yaml when it is not ./pipeline.yaml)
#
# The training run is `validate` of the project's pipeline YAML: offline, it loads the runtime, the
# configuration loader and its validator, and the pipeline built by its factory, but not what the Kafka
# clients load once they talk to a broker (docs/jvm-tuning.md has the recipe for a run against a
# cluster). An archive serves one jar and one JVM build: a JVM it does not fit prints one warning and
# starts without it, never fails.
ARG BASE
FROM ${BASE}

ARG TRAINING_CONFIG=pipeline.yaml
USER root
COPY ${TRAINING_CONFIG} /app/training.yaml
RUN java -XX:ArchiveClassesAtExit=/app/pipeline.jsa -jar /app/pipeline.jar validate /app/training.yaml \
 && rm /app/training.yaml
USER 10001:10001

ENV JDK_JAVA_OPTIONS="-XX:SharedArchiveFile=/app/pipeline.jsa ${JDK_JAVA_OPTIONS}"
