package io.chronix.api.influx;

import io.swagger.v3.oas.annotations.Operation;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET|HEAD /ping}: InfluxDB clients probe it before writing; open, no credentials. */
@RestController
class PingController {

    /** The InfluxDB version we answer as: the 1.8 line-protocol and /write behaviour we follow. */
    static final String INFLUX_VERSION = "1.8.10";

    @RequestMapping(path = "/ping", method = {RequestMethod.GET, RequestMethod.HEAD})
    @Operation(summary = "Liveness probe for InfluxDB clients", description = "204 with an X-Influxdb-Version header.")
    ResponseEntity<Void> ping() {
        return ResponseEntity.noContent()
                .header("X-Influxdb-Version", INFLUX_VERSION)
                .header("X-Influxdb-Build", "OSS")
                .build();
    }
}
