package eventbridge

import (
	"encoding/json"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
)

// connectionParameter is one header, query string or body parameter of a
// connection.
type connectionParameter struct {
	Key           *string `json:"Key,omitempty"`
	Value         *string `json:"Value,omitempty"`
	IsValueSecret bool    `json:"IsValueSecret"`
}

// connectionHttpParameters are the extra parameters a connection adds to
// each request (InvocationHttpParameters) or to its OAuth request.
type connectionHttpParameters struct {
	HeaderParameters      []connectionParameter `json:"HeaderParameters,omitempty"`
	QueryStringParameters []connectionParameter `json:"QueryStringParameters,omitempty"`
	BodyParameters        []connectionParameter `json:"BodyParameters,omitempty"`
}

type basicAuth struct {
	Username *string `json:"Username,omitempty"`
	Password *string `json:"Password,omitempty"`
}

type apiKeyAuth struct {
	ApiKeyName  *string `json:"ApiKeyName,omitempty"`
	ApiKeyValue *string `json:"ApiKeyValue,omitempty"`
}

type oauthClient struct {
	ClientID     *string `json:"ClientID,omitempty"`
	ClientSecret *string `json:"ClientSecret,omitempty"`
}

type oauthParams struct {
	ClientParameters      *oauthClient              `json:"ClientParameters,omitempty"`
	AuthorizationEndpoint *string                   `json:"AuthorizationEndpoint,omitempty"`
	HttpMethod            *string                   `json:"HttpMethod,omitempty"`
	OAuthHttpParameters   *connectionHttpParameters `json:"OAuthHttpParameters,omitempty"`
}

// authParams is a connection's AuthParameters, in requests and (with the
// secrets removed) in DescribeConnection.
type authParams struct {
	BasicAuthParameters      *basicAuth                `json:"BasicAuthParameters,omitempty"`
	OAuthParameters          *oauthParams              `json:"OAuthParameters,omitempty"`
	ApiKeyAuthParameters     *apiKeyAuth               `json:"ApiKeyAuthParameters,omitempty"`
	InvocationHttpParameters *connectionHttpParameters `json:"InvocationHttpParameters,omitempty"`
	ConnectivityParameters   json.RawMessage           `json:"ConnectivityParameters,omitempty"`
}

type connectionInput struct {
	Name                             *string         `json:"Name"`
	Description                      *string         `json:"Description"`
	AuthorizationType                *string         `json:"AuthorizationType"`
	AuthParameters                   *authParams     `json:"AuthParameters"`
	InvocationConnectivityParameters json.RawMessage `json:"InvocationConnectivityParameters"`
	KmsKeyIdentifier                 *string         `json:"KmsKeyIdentifier"`
}

// connectionTimes are a connection's timestamps, its last authorization's
// included.
type connectionTimes struct {
	timestamps
	LastAuthorizedTime *awsjson.Timestamp `json:"LastAuthorizedTime,omitempty"`
}

type connectionStateOutput struct {
	ConnectionArn   string `json:"ConnectionArn"`
	ConnectionState string `json:"ConnectionState"`
	connectionTimes
}

type connectionItem struct {
	Name              string  `json:"Name"`
	ConnectionArn     string  `json:"ConnectionArn"`
	ConnectionState   string  `json:"ConnectionState"`
	StateReason       *string `json:"StateReason,omitempty"`
	AuthorizationType string  `json:"AuthorizationType"`
	connectionTimes
}

type describeConnectionOutput struct {
	connectionItem
	Description                      *string         `json:"Description,omitempty"`
	AuthParameters                   *authParams     `json:"AuthParameters,omitempty"`
	SecretArn                        string          `json:"SecretArn"`
	KmsKeyIdentifier                 *string         `json:"KmsKeyIdentifier,omitempty"`
	InvocationConnectivityParameters json.RawMessage `json:"InvocationConnectivityParameters,omitempty"`
}

type listConnectionsInput struct {
	pageInput
	NamePrefix      *string `json:"NamePrefix"`
	ConnectionState *string `json:"ConnectionState"`
}

type listConnectionsOutput struct {
	Connections []connectionItem `json:"Connections"`
	NextToken   *string          `json:"NextToken,omitempty"`
}

type apiDestinationInput struct {
	Name                         *string `json:"Name"`
	Description                  *string `json:"Description"`
	ConnectionArn                *string `json:"ConnectionArn"`
	InvocationEndpoint           *string `json:"InvocationEndpoint"`
	HttpMethod                   *string `json:"HttpMethod"`
	InvocationRateLimitPerSecond *int32  `json:"InvocationRateLimitPerSecond"`
}

type apiDestinationStateOutput struct {
	ApiDestinationArn   string `json:"ApiDestinationArn"`
	ApiDestinationState string `json:"ApiDestinationState"`
	timestamps
}

type apiDestinationItem struct {
	Name                         string `json:"Name"`
	ApiDestinationArn            string `json:"ApiDestinationArn"`
	ApiDestinationState          string `json:"ApiDestinationState"`
	ConnectionArn                string `json:"ConnectionArn"`
	InvocationEndpoint           string `json:"InvocationEndpoint"`
	HttpMethod                   string `json:"HttpMethod"`
	InvocationRateLimitPerSecond int32  `json:"InvocationRateLimitPerSecond"`
	timestamps
}

type describeApiDestinationOutput struct {
	apiDestinationItem
	Description *string `json:"Description,omitempty"`
}

type listApiDestinationsInput struct {
	pageInput
	NamePrefix    *string `json:"NamePrefix"`
	ConnectionArn *string `json:"ConnectionArn"`
}

type listApiDestinationsOutput struct {
	ApiDestinations []apiDestinationItem `json:"ApiDestinations"`
	NextToken       *string              `json:"NextToken,omitempty"`
}
