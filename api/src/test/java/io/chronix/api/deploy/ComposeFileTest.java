package io.chronix.api.deploy;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The compose stack stays valid: the file parses, every service the app needs is there with a
 * health check, and every environment name given to the app is a real configuration property
 * (checked against the configuration metadata of everything on the class path, ours included).
 */
class ComposeFileTest {

    private static final Path COMPOSE = Path.of("..", "docker-compose.yml");

    @SuppressWarnings("unchecked")
    private static Map<String, Object> compose() throws IOException {
        try (InputStream in = Files.newInputStream(COMPOSE)) {
            return new Yaml().load(in);
        }
    }

    @SuppressWarnings("unchecked")
    @Test
    void composeDefinesTheStackWithHealthChecksAndVolumes() throws Exception {
        Map<String, Object> services = (Map<String, Object>) compose().get("services");
        assertThat(services).containsKeys("chronix", "postgres", "minio", "minio-init");
        for (String s : List.of("chronix", "postgres", "minio")) {
            assertThat((Map<String, Object>) services.get(s)).as(s).containsKey("healthcheck");
        }
        assertThat((Map<String, Object>) compose().get("volumes")).containsKeys("postgres-data", "minio-data", "chronix-data");
        assertThat(Path.of("..", "Dockerfile")).exists();
    }

    @SuppressWarnings("unchecked")
    @Test
    void everyEnvironmentNameOfTheAppIsAConfigurationProperty() throws Exception {
        Map<String, Object> app = (Map<String, Object>) ((Map<String, Object>) compose().get("services")).get("chronix");
        Map<String, Object> env = (Map<String, Object>) app.get("environment");
        Set<String> known = knownProperties();
        assertThat(known).as("our own metadata was generated").contains(relaxed("chronix.cold.s3.access-key"), relaxed("chronix.data-dir"));
        assertThat(env).isNotEmpty();
        for (String name : env.keySet()) {
            assertThat(known).as("environment name %s maps to a known property", name).contains(relaxed(name));
        }
    }

    @Test
    void dockerComposeAcceptsTheFileWhereThePluginExists() throws Exception {
        // there is no Docker engine on our build machines; `docker compose config` needs none, only
        // the plugin, so this runs wherever the plugin is installed and is a no-op elsewhere
        if (!commandSucceeds(List.of("docker", "compose", "version"))) {
            return;
        }
        ProcessBuilder pb = new ProcessBuilder("docker", "compose", "-f", COMPOSE.toString(), "config", "-q").redirectErrorStream(true);
        pb.environment().put("CHRONIX_OPERATOR_TOKEN", "compose-config-check-token");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
    }

    /**
     * The separator-free form under which Spring Boot's relaxed binding matches an environment name
     * to a property: {@code CHRONIX_OPERATOR_TOKEN} and {@code CHRONIX_OPERATORTOKEN} both bind
     * {@code chronix.operator-token}.
     */
    private static String relaxed(String name) {
        return name.toLowerCase(Locale.ROOT).replaceAll("[._-]", "");
    }

    /** Every property named in configuration metadata on the class path, in relaxed form. */
    private static Set<String> knownProperties() throws IOException {
        Set<String> names = new HashSet<>();
        JsonMapper json = JsonMapper.builder().build();
        Enumeration<URL> files = ComposeFileTest.class.getClassLoader().getResources("META-INF/spring-configuration-metadata.json");
        while (files.hasMoreElements()) {
            try (InputStream in = files.nextElement().openStream()) {
                JsonNode root = json.readTree(in);
                for (JsonNode p : root.path("properties")) {
                    names.add(relaxed(p.path("name").asString()));
                }
            }
        }
        return names;
    }

    private static boolean commandSucceeds(List<String> cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }
}
