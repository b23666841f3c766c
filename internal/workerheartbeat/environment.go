package workerheartbeat

import (
	"os"
	"runtime"
	"strings"

	workerpb "go.temporal.io/api/worker/v1"
)

// Environment is what a worker tells the server once of the process it
// runs in, as go.temporal.io/sdk tells it: the Go runtime, the platform
// (operating system, its version, the architecture), and the hosting
// environments the process can recognize.
func Environment() *workerpb.EnvironmentInfo {
	return &workerpb.EnvironmentInfo{
		Runtimes:            []*workerpb.EnvironmentInfo_Runtime{{Type: workerpb.EnvironmentInfo_Runtime_RUNTIME_TYPE_GO, Version: runtime.Version()}},
		HostingEnvironments: hostingEnvironments(os.LookupEnv, inDocker()),
		Platform:            platform(),
	}
}

// hostingSignals are the environment variables that tell each hosting
// environment apart (those the platforms document and
// go.temporal.io/sdk reads); version, when set, names the variable that
// holds its version.
var hostingSignals = []struct {
	kind      workerpb.EnvironmentInfo_HostingEnvironment_HostingEnvironmentType
	variables []string
	version   string
}{
	{workerpb.EnvironmentInfo_HostingEnvironment_HOSTING_ENVIRONMENT_TYPE_K8S, []string{"KUBERNETES_SERVICE_HOST"}, ""},
	{workerpb.EnvironmentInfo_HostingEnvironment_HOSTING_ENVIRONMENT_TYPE_AWS_LAMBDA, []string{"AWS_LAMBDA_FUNCTION_NAME"}, ""},
	{workerpb.EnvironmentInfo_HostingEnvironment_HOSTING_ENVIRONMENT_TYPE_AWS_ECS, []string{"ECS_CONTAINER_METADATA_URI_V4", "ECS_CONTAINER_METADATA_URI"}, ""},
	{workerpb.EnvironmentInfo_HostingEnvironment_HOSTING_ENVIRONMENT_TYPE_GOOGLE_CLOUD_RUN, []string{"K_SERVICE", "CLOUD_RUN_JOB", "CLOUD_RUN_WORKER_POOL"}, ""},
	{workerpb.EnvironmentInfo_HostingEnvironment_HOSTING_ENVIRONMENT_TYPE_GOOGLE_APP_ENGINE, []string{"GAE_SERVICE"}, ""},
	{workerpb.EnvironmentInfo_HostingEnvironment_HOSTING_ENVIRONMENT_TYPE_AZURE_APP_SERVICE, []string{"WEBSITE_SITE_NAME"}, "WEBSITE_PLATFORM_VERSION"},
	{workerpb.EnvironmentInfo_HostingEnvironment_HOSTING_ENVIRONMENT_TYPE_AZURE_FUNCTIONS, []string{"FUNCTIONS_EXTENSION_VERSION"}, "FUNCTIONS_EXTENSION_VERSION"},
	{workerpb.EnvironmentInfo_HostingEnvironment_HOSTING_ENVIRONMENT_TYPE_AZURE_CONTAINER_APPS, []string{"CONTAINER_APP_NAME", "CONTAINER_APP_JOB_NAME"}, ""},
}

// hostingEnvironments are those lookup's variables (and docker) show.
func hostingEnvironments(lookup func(string) (string, bool), docker bool) []*workerpb.EnvironmentInfo_HostingEnvironment {
	value := func(name string) string {
		v, _ := lookup(name)
		return strings.TrimSpace(v)
	}
	var envs []*workerpb.EnvironmentInfo_HostingEnvironment
	if docker {
		envs = append(envs, &workerpb.EnvironmentInfo_HostingEnvironment{Type: workerpb.EnvironmentInfo_HostingEnvironment_HOSTING_ENVIRONMENT_TYPE_DOCKER})
	}
	for _, signal := range hostingSignals {
		for _, name := range signal.variables {
			if value(name) != "" {
				envs = append(envs, &workerpb.EnvironmentInfo_HostingEnvironment{Type: signal.kind, Version: value(signal.version)})
				break
			}
		}
	}
	return envs
}

// inDocker reports a process in a Docker container: the file Docker
// creates at the root, or a cgroup of Docker's.
func inDocker() bool {
	if _, err := os.Stat("/.dockerenv"); err == nil {
		return true
	}
	cgroups, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(cgroups), "\n") {
		path := line[strings.LastIndex(line, ":")+1:] // hierarchy-ID:controllers:path
		for _, part := range strings.Split(path, "/") {
			if part == "docker" || (strings.HasPrefix(part, "docker-") && strings.HasSuffix(part, ".scope")) {
				return true
			}
		}
	}
	return false
}

// platform is the operating system the process runs on.
func platform() *workerpb.EnvironmentInfo_Platform {
	arch := workerpb.EnvironmentInfo_ARCHITECTURE_UNSPECIFIED
	switch runtime.GOARCH {
	case "amd64":
		arch = workerpb.EnvironmentInfo_ARCHITECTURE_AMD64
	case "arm64":
		arch = workerpb.EnvironmentInfo_ARCHITECTURE_ARM64
	}
	switch runtime.GOOS {
	case "linux":
		return &workerpb.EnvironmentInfo_Platform{Variant: &workerpb.EnvironmentInfo_Platform_Linux{
			Linux: &workerpb.EnvironmentInfo_LinuxPlatform{Version: linuxVersion(), Architecture: arch}}}
	case "darwin":
		return &workerpb.EnvironmentInfo_Platform{Variant: &workerpb.EnvironmentInfo_Platform_Macos{
			Macos: &workerpb.EnvironmentInfo_MacOSPlatform{Architecture: arch}}}
	case "windows":
		return &workerpb.EnvironmentInfo_Platform{Variant: &workerpb.EnvironmentInfo_Platform_Windows{
			Windows: &workerpb.EnvironmentInfo_WindowsPlatform{Architecture: arch}}}
	}
	return nil
}

// linuxVersion is the distribution's version (os-release's VERSION_ID),
// else the kernel's release.
func linuxVersion() string {
	for _, path := range []string{"/etc/os-release", "/usr/lib/os-release"} {
		content, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(content), "\n") {
			if v, ok := strings.CutPrefix(line, "VERSION_ID="); ok {
				return strings.Trim(strings.TrimSpace(v), `"'`)
			}
		}
	}
	release, _ := os.ReadFile("/proc/sys/kernel/osrelease")
	return strings.TrimSpace(string(release))
}
