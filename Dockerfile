# Builds the service jar and runs it on a JRE 25.
FROM eclipse-temurin:25-jdk AS build
WORKDIR /src
COPY . .
RUN ./mvnw -B -q -DskipTests package -pl api -am

FROM eclipse-temurin:25-jre
RUN apt-get update && apt-get install -y --no-install-recommends curl && rm -rf /var/lib/apt/lists/* \
    && useradd --system --home /var/lib/chronix chronix && mkdir -p /var/lib/chronix && chown chronix /var/lib/chronix
COPY --from=build /src/api/target/chronix.jar /opt/chronix/chronix.jar
USER chronix
# a fixed heap, touched at start (docs/operations.md, "The JVM's heap"); override with -e JDK_JAVA_OPTIONS=…
ENV JDK_JAVA_OPTIONS="-XX:InitialRAMPercentage=25 -XX:MaxRAMPercentage=25 -XX:+AlwaysPreTouch"
EXPOSE 8080
VOLUME /var/lib/chronix
ENTRYPOINT ["java", "-jar", "/opt/chronix/chronix.jar"]
